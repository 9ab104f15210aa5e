-- Staff reviews, part two. Withdrawal review: limits per user level and currency, and a queue of withdrawals that
-- wait for staff instead of broadcasting (above a limit, to a beneficiary in its first hours, or flagged by a rule).
-- Identity review: the reviewer's comment to the applicant (Sumsub's moderationComment) reaches the user.

-- The limit of a user is the row of their currency with the highest level not above theirs; no row, no limit.
create table withdraw_limits (
  level          smallint not null check (level between 0 and 3),
  currency_id    text not null references currencies(id),
  per_withdrawal numeric(36, 18) check (per_withdrawal > 0),
  per_day        numeric(36, 18) check (per_day > 0),
  updated_at     timestamptz not null default now(),
  primary key (level, currency_id)
);

alter table withdrawals drop constraint withdrawals_state_check;
alter table withdrawals add constraint withdrawals_state_check
  check (state in ('prepared', 'under_review', 'accepted', 'processing', 'confirming', 'succeed', 'canceled',
                   'rejected', 'failed', 'errored', 'skipped'));
-- Why it waits for review (codes such as `limit.per_withdrawal`), who decided and when, and what the user is told.
alter table withdrawals add column review_reasons text[];
alter table withdrawals add column reviewed_by bigint references users(id);
alter table withdrawals add column reviewed_at timestamptz;
alter table withdrawals add column note text;
create index withdrawals_review_idx on withdrawals (id) where state = 'under_review';
-- The 24-hour sum of a user's withdrawals of a currency.
create index withdrawals_user_currency_idx on withdrawals (user_id, currency_id, created_at);

-- When a saved address became usable: a withdrawal to it in its first hours waits for review.
alter table beneficiaries add column activated_at timestamptz;
update beneficiaries set activated_at = updated_at where state = 'active';

-- The reviewer's comment to an applicant on a rejection or a retry, as we received it.
alter table kyc_applicants add column review_comment text;
