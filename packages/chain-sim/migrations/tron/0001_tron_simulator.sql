-- The java-tron HTTP API simulator (packages/chain-sim/src/tron): its chains, blocks, transactions and the balance
-- changes they made, per simulated chain (`chain`, e.g. `tron-sim`), recorded in `tronsim_schema_migrations`.
-- Balances are never stored: they are the sum of the changes of mined transactions, so a reorganisation only has to
-- delete rows. Addresses are hex (41…). Until issue 34 the exchange's migration 0028 made these tables: every
-- statement here is `if not exists`, so a database it made adopts them and their rows.

create table if not exists tronsim_blocks (
  chain           text not null,
  number          bigint not null,
  block_id        text not null,
  parent_hash     text not null,
  timestamp_ms    bigint not null,
  tx_trie_root    text not null,
  witness_address text not null,
  witness_signature text not null,
  primary key (chain, number)
);

-- A transaction as broadcast (raw_data as JSON, hex addresses) and, once mined, where and with what result.
create table if not exists tronsim_transactions (
  chain        text not null,
  txid         text not null,
  seq          bigserial not null,
  owner        text not null,
  raw_data     jsonb not null,
  raw_data_hex text not null,
  signature    text[] not null,
  block_number bigint,
  position     integer,
  -- Transaction.Result.contractRet (SUCCESS, REVERT, OUT_OF_ENERGY) and the TransactionInfo, set when mined.
  contract_ret text,
  info         jsonb,
  -- Free bandwidth the transaction used (its owner's daily allowance), counted while its block is less than a day old.
  free_net_used bigint not null default 0,
  primary key (chain, txid)
);
create index if not exists tronsim_transactions_block_idx on tronsim_transactions (chain, block_number, position);
create index if not exists tronsim_transactions_owner_idx on tronsim_transactions (chain, owner, block_number);

-- Balance changes of mined transactions: TRX (sun) and the emulated TRC-20 (token units), genesis included.
create table if not exists tronsim_ledger (
  id           bigserial primary key,
  chain        text not null,
  txid         text,
  block_number bigint not null,
  address      text not null,
  currency     text not null check (currency in ('trx', 'usdt')),
  delta        numeric(40, 0) not null
);
create index if not exists tronsim_ledger_address_idx on tronsim_ledger (chain, address, currency);
create index if not exists tronsim_ledger_block_idx on tronsim_ledger (chain, block_number);
