-- Wallet: deposit addresses, deposits, withdrawals, beneficiaries, adjustments, swaps, and the simulated chains.

-- Every address we gave a user on a network. The newest per (user, network) is the one shown; older ones keep
-- working. The private key is sealed with the server key.
create table deposit_addresses (
  id             bigserial primary key,
  user_id        bigint not null references users(id),
  blockchain_key text not null references blockchains(key),
  address        text not null,
  secret_enc     text not null,
  created_at     timestamptz not null default now(),
  unique (blockchain_key, address)
);
create index deposit_addresses_user_idx on deposit_addresses (user_id, blockchain_key, id desc);

-- One hot wallet per network pays withdrawals.
create table hot_wallets (
  blockchain_key text primary key references blockchains(key),
  address        text not null,
  secret_enc     text not null,
  created_at     timestamptz not null default now()
);

-- Where each network's watcher is, and the hashes of recent blocks to notice a reorg.
create table chain_blocks (
  blockchain_key text not null references blockchains(key),
  height         bigint not null,
  hash           text not null,
  parent_hash    text not null,
  primary key (blockchain_key, height)
);

-- A deposit is one (network, txid, output or log index): the key that makes crediting happen once.
create table deposits (
  id             bigserial primary key,
  user_id        bigint not null references users(id),
  currency_id    text not null references currencies(id),
  blockchain_key text not null references blockchains(key),
  address        text not null,
  txid           text not null,
  txout          integer not null,
  amount         numeric(36, 18) not null check (amount > 0),
  fee            numeric(36, 18) not null default 0 check (fee >= 0),
  block_height   bigint,
  block_hash     text,
  state          text not null default 'submitted'
    check (state in ('submitted', 'accepted', 'collecting', 'collected', 'skipped', 'canceled', 'rejected', 'errored')),
  note           text,
  credited_at    timestamptz,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  unique (blockchain_key, txid, txout)
);
create index deposits_user_idx on deposits (user_id, id desc);
create index deposits_pending_idx on deposits (blockchain_key) where state in ('submitted', 'accepted');

-- A reorg under an already credited deposit: never changes balances by itself; an operator looks.
create table chain_alerts (
  id             bigserial primary key,
  blockchain_key text not null,
  kind           text not null,
  detail         jsonb not null,
  created_at     timestamptz not null default now(),
  resolved_at    timestamptz
);

-- Saved withdrawal addresses; active after the emailed pin.
create table beneficiaries (
  id             bigserial primary key,
  user_id        bigint not null references users(id),
  currency_id    text not null references currencies(id),
  blockchain_key text not null references blockchains(key),
  name           text not null,
  description    text not null default '',
  address        text not null,
  memo           text,
  state          text not null default 'pending' check (state in ('pending', 'active')),
  pin_hash       text,
  pin_sent_at    timestamptz,
  pin_expires_at timestamptz,
  pin_attempts   integer not null default 0,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  unique nulls not distinct (user_id, currency_id, blockchain_key, address, memo)
);

create table withdrawals (
  id             bigserial primary key,
  user_id        bigint not null references users(id),
  currency_id    text not null references currencies(id),
  blockchain_key text not null references blockchains(key),
  beneficiary_id bigint references beneficiaries(id) on delete set null,
  rid            text not null,
  memo           text,
  amount         numeric(36, 18) not null check (amount > 0),
  fee            numeric(36, 18) not null check (fee >= 0),
  internal_user_id bigint references users(id),
  state          text not null default 'prepared'
    check (state in ('prepared', 'accepted', 'processing', 'confirming', 'succeed', 'canceled', 'rejected', 'failed', 'errored', 'skipped')),
  txid           text,
  block_height   bigint,
  error          text,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create index withdrawals_user_idx on withdrawals (user_id, id desc);
create index withdrawals_open_idx on withdrawals (state) where state in ('accepted', 'processing', 'confirming');

-- Operator balance adjustments: inserted pending by the CLI, applied by the server through the core.
create table adjustments (
  id          bigserial primary key,
  user_id     bigint not null references users(id),
  currency_id text not null references currencies(id),
  amount      numeric(36, 18) not null check (amount <> 0),
  reason      text not null default '',
  state       text not null default 'pending' check (state in ('pending', 'accepted', 'rejected')),
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create index adjustments_user_idx on adjustments (user_id, id desc);
create index adjustments_pending_idx on adjustments (id) where state = 'pending';

create table swaps (
  id            bigserial primary key,
  user_id       bigint not null references users(id),
  from_currency text not null references currencies(id),
  to_currency   text not null references currencies(id),
  amount        numeric(36, 18) not null,
  price         numeric(36, 18) not null,
  total         numeric(36, 18) not null,
  fee           numeric(36, 18) not null,
  state         text not null check (state in ('completed', 'rejected')),
  reason        text,
  -- A quote executes once: a repeat finds this row.
  quote_hash    text not null unique,
  created_at    timestamptz not null default now()
);
create index swaps_user_idx on swaps (user_id, id desc);

-- Simulated chains (networks with no local node): canonical blocks and transactions, all in the database so the
-- app and the operator command line see the same chain.
create table sim_blocks (
  chain       text not null,
  height      bigint not null,
  hash        text not null,
  parent_hash text not null,
  created_at  timestamptz not null default now(),
  primary key (chain, height)
);

create table sim_addresses (
  chain       text not null,
  address     text not null,
  secret_hash text not null,
  primary key (chain, address)
);

-- A transaction with block_height null is in the mempool. `idx` numbers the transfers of one transaction.
create table sim_transactions (
  id           bigserial primary key,
  chain        text not null,
  txid         text not null,
  idx          integer not null default 0,
  from_address text,
  to_address   text not null,
  currency_id  text not null,
  amount       numeric(36, 18) not null check (amount > 0),
  memo         text,
  block_height bigint,
  created_at   timestamptz not null default now(),
  unique (chain, txid, idx)
);
create index sim_transactions_block_idx on sim_transactions (chain, block_height);
create index sim_transactions_to_idx on sim_transactions (chain, to_address);
create index sim_transactions_from_idx on sim_transactions (chain, from_address);
