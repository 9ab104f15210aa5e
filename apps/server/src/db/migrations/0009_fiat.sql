-- Fiat withdrawals to a bank account (EUR): held in the core, paid by the bank port, settled or released.
create table fiat_withdrawals (
  id          bigserial primary key,
  user_id     bigint not null references users(id),
  currency_id text not null references currencies(id),
  amount      numeric(36, 18) not null check (amount > 0),
  fee         numeric(36, 18) not null default 0 check (fee >= 0),
  iban        text not null,
  holder      text not null,
  state       text not null default 'prepared'
    check (state in ('prepared', 'processing', 'succeed', 'failed', 'rejected')),
  bank_ref    text,
  error       text,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create index fiat_withdrawals_user_idx on fiat_withdrawals (user_id, id desc);
