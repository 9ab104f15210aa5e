-- Account closure (issue 31, part 4). A user with no open orders asks to close the account; each remaining balance
-- is withdrawn to an activated address of theirs (a normal withdrawal, linked below), and once nothing is left the
-- account is closed: users.state becomes 'deleted' (no login), sessions and API keys end. The rows are kept: the
-- AML policy keeps client records 8 years and correspondence 5 years after the relationship ends, so the closure
-- stores both dates for the job that will erase them (see README, "Account closure").
create table account_closures (
  id                      bigserial primary key,
  -- No cascade: a closed account's records outlive it for the retention periods.
  user_id                 bigint not null references users(id),
  state                   text not null default 'open' check (state in ('open', 'canceled', 'closed')),
  requested_at            timestamptz not null default now(),
  -- Terms: without a whitelisted address within 30 calendar days the provider may convert the assets to fiat.
  conversion_due_at       timestamptz not null default now() + interval '30 days',
  canceled_at             timestamptz,
  closed_at               timestamptz,
  records_erase_at        timestamptz,
  correspondence_erase_at timestamptz,
  check ((state = 'closed') = (closed_at is not null and records_erase_at is not null
                               and correspondence_erase_at is not null))
);
-- At most one closure under way per user.
create unique index account_closures_open_idx on account_closures (user_id) where state = 'open';
create index account_closures_state_idx on account_closures (state, requested_at);

-- The withdrawals a closure made (one per currency and attempt; a failed one is followed by another).
create table account_closure_withdrawals (
  closure_id    bigint not null references account_closures(id),
  withdrawal_id bigint primary key references withdrawals(id)
);
create index account_closure_withdrawals_closure_idx on account_closure_withdrawals (closure_id);
