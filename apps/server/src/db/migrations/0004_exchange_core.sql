-- The exchange core's durable state. The sequencer writes each batch of commands in one transaction.

-- Counters and the last committed batch: one row.
create table engine_state (
  id             smallint primary key default 1 check (id = 1),
  batch_seq      bigint not null default 0,
  next_order_id  bigint not null default 1,
  next_trade_id  bigint not null default 1,
  next_seq       bigint not null default 1,
  updated_at     timestamptz not null default now()
);
insert into engine_state (id) values (1);

-- System accounts of the ledger (fees, external flow, card float, swap liquidity) per currency.
create table system_balances (
  account     text not null check (account in ('fees', 'external', 'card', 'swap')),
  currency_id text not null references currencies(id),
  amount      numeric(40, 18) not null default 0,
  primary key (account, currency_id)
);

create table orders (
  id               bigint primary key,
  uuid             uuid not null default gen_random_uuid() unique,
  client_ref       text unique,
  user_id          bigint not null references users(id),
  market_id        text not null references markets(id),
  side             text not null check (side in ('buy', 'sell')),
  ord_type         text not null,
  price            numeric(36, 18),
  stop_price       numeric(36, 18),
  origin_volume    numeric(36, 18) not null,
  remaining_volume numeric(36, 18) not null,
  executed_volume  numeric(36, 18) not null,
  locked           numeric(36, 18) not null,
  funds_received   numeric(36, 18) not null,
  funds_spent      numeric(36, 18) not null,
  trades_count     integer not null,
  state            text not null check (state in ('wait', 'pending', 'done', 'cancel', 'reject')),
  maker_fee        numeric(10, 6) not null,
  taker_fee        numeric(10, 6) not null,
  seq              bigint not null,
  triggered_at     timestamptz,
  created_at       timestamptz not null,
  updated_at       timestamptz not null
);
create index orders_open_idx on orders (market_id) where state in ('wait', 'pending');
create index orders_user_idx on orders (user_id, id desc);

create table trades (
  id             bigint primary key,
  market_id      text not null references markets(id),
  price          numeric(36, 18) not null,
  amount         numeric(36, 18) not null,
  total          numeric(36, 18) not null,
  maker_order_id bigint not null,
  taker_order_id bigint not null,
  maker_id       bigint not null references users(id),
  taker_id       bigint not null references users(id),
  taker_type     text not null check (taker_type in ('buy', 'sell')),
  maker_fee      numeric(36, 18) not null,
  taker_fee      numeric(36, 18) not null,
  created_at     timestamptz not null
);
create index trades_market_idx on trades (market_id, id desc);
create index trades_maker_idx on trades (maker_id, id desc);
create index trades_taker_idx on trades (taker_id, id desc);

-- Withdrawal holds the core keeps until they are settled or released.
create table withdrawal_holds (
  withdrawal_id text primary key,
  user_id       bigint not null references users(id),
  currency_id   text not null references currencies(id),
  amount        numeric(36, 18) not null
);

-- Idempotency: a client command id takes effect once; its outcome is kept for repeats.
create table client_commands (
  ref        text primary key,
  batch_seq  bigint not null,
  ok         boolean not null,
  code       text,
  order_id   bigint,
  created_at timestamptz not null default now()
);

-- Balances written before the core existed (the seed) already have postings; carry their system side over.
insert into system_balances (account, currency_id, amount)
  select account, currency_id, sum(amount) from ledger_postings
  where account in ('fees', 'external', 'card', 'swap') group by account, currency_id;
