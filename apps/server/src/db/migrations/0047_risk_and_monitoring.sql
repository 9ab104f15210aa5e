-- Transaction monitoring and risk classes (issue 33, items 1 and 2).
--
-- Every deposit, withdrawal, internal transfer (both sides), swap and card top-up is valued in EUR once by the
-- monitor (a scheduled scan) and kept here with that value, so the rules that sum a customer's operations over a
-- window read exact figures fixed at the time, never re-priced later.
create table aml_operations (
  id                   bigserial primary key,
  source               text not null check (source in ('deposit', 'withdrawal', 'swap', 'card_topup')),
  source_id            bigint not null,
  user_id              bigint not null references users(id),
  kind                 text not null
    check (kind in ('deposit', 'withdrawal', 'transfer_in', 'transfer_out', 'swap', 'card_topup')),
  currency_id          text not null,
  amount               numeric(36, 18) not null,
  -- The value in EUR cents when valued (rounded down); null when the currency had no price.
  eur_cents            bigint,
  -- ISO country of the counterparty's service or person where known (bank of the payer, the other customer).
  counterparty_country text,
  occurred_at          timestamptz not null,
  checked_at           timestamptz not null default now(),
  unique (source, source_id)
);
create index aml_operations_user_idx on aml_operations (user_id, occurred_at);

-- A rule's hit: open until compliance closes it as a false positive or escalates it to a report. One per
-- operation and rule, so a scan that runs twice opens nothing twice.
create table aml_alerts (
  id            bigserial primary key,
  user_id       bigint not null references users(id),
  rule          text not null,
  operation_id  bigint not null references aml_operations(id),
  -- The operations the hit is made of (the linked ones, the deposit and its withdrawal), this one included.
  operation_ids bigint[] not null,
  eur_cents     bigint,
  facts         jsonb not null,
  state         text not null default 'open' check (state in ('open', 'closed', 'escalated')),
  reason        text,
  decided_by    bigint references users(id),
  decided_at    timestamptz,
  created_at    timestamptz not null default now(),
  unique (operation_id, rule)
);
create index aml_alerts_state_idx on aml_alerts (state, id desc);
create index aml_alerts_user_idx on aml_alerts (user_id, state);

-- A report to the financial intelligence unit, made from an escalated alert: the suspicion's time and the
-- policy's deadline (three business hours later) are fixed when it is made.
create table aml_reports (
  id           bigserial primary key,
  alert_id     bigint not null unique references aml_alerts(id),
  user_id      bigint not null references users(id),
  suspicion_at timestamptz not null,
  due_at       timestamptz not null,
  narrative    text not null,
  created_by   bigint not null references users(id),
  exported_at  timestamptz,
  created_at   timestamptz not null default now()
);

-- A withdrawal held for a report: it stays under review and cannot be approved until `until` (at most 10 business
-- days) or until compliance lifts it.
create table aml_suspensions (
  id            bigserial primary key,
  report_id     bigint not null references aml_reports(id),
  withdrawal_id bigint not null references withdrawals(id),
  until         timestamptz not null,
  suspended_by  bigint not null references users(id),
  lifted_at     timestamptz,
  created_at    timestamptz not null default now()
);
create unique index aml_suspensions_active_idx on aml_suspensions (withdrawal_id) where lifted_at is null;

-- A suspended withdrawal is not approved while the suspension runs, whichever path tries it.
create function aml_refuse_suspended() returns trigger language plpgsql as $$
begin
  if exists (select 1 from aml_suspensions s where s.withdrawal_id = new.id and s.lifted_at is null
             and s.until > now()) then
    raise exception 'withdrawal % is suspended for a report', new.id using errcode = 'XCA01';
  end if;
  return new;
end
$$;
create trigger withdrawals_aml_suspended before update of state on withdrawals
  for each row when (old.state = 'under_review' and new.state = 'accepted')
  execute function aml_refuse_suspended();

-- Staff never decide on their own account (as migration 0022 does for the other decisions).
create trigger aml_alerts_not_own before insert or update of decided_by on aml_alerts
  for each row when (new.decided_by = new.user_id) execute function refuse_own_decision();
create trigger aml_reports_not_own before insert or update of created_by on aml_reports
  for each row when (new.created_by = new.user_id) execute function refuse_own_decision();

-- Risk classes: one row per customer who has been assessed; a customer without a row is `low` until the rules run.
create table aml_risk_profiles (
  user_id     bigint primary key references users(id),
  class       text not null check (class in ('low', 'average', 'high')),
  reasons     text[] not null,
  -- `rules`: the last assessment by the rules; `staff`: set by compliance (the reason is in `note` and the trail).
  source      text not null check (source in ('rules', 'staff')),
  note        text,
  set_by      bigint references users(id),
  review_due  timestamptz not null,
  -- A politically exposed person; `pep_left_office` is when they left office (the status lasts one more year).
  pep             boolean not null default false,
  pep_left_office date,
  updated_at  timestamptz not null default now()
);
create index aml_risk_profiles_due_idx on aml_risk_profiles (review_due);
create trigger aml_risk_profiles_not_own before insert or update of set_by on aml_risk_profiles
  for each row when (new.set_by = new.user_id) execute function refuse_own_decision();
