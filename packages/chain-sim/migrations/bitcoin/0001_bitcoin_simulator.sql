-- The Bitcoin Core simulator's chain (packages/chain-sim/src/bitcoin: a regtest node imitated in PostgreSQL), per
-- simulated chain (`chain`), recorded in `btcsim_schema_migrations`. Until issue 34 the exchange's migration 0027
-- made these tables: every statement here is `if not exists`, so a database it made adopts them and their rows.

-- Every block ever made, including those a reorg or invalidateblock took out of the active chain (active = false):
-- getblock still answers for them, with confirmations -1, as Core does for a block off the active chain.
create table if not exists btcsim_blocks (
  chain text not null,
  hash text not null,
  height integer not null check (height >= 0),
  prev_hash text not null,
  header bytea not null,
  time bigint not null,
  active boolean not null,
  primary key (chain, hash)
);
create unique index if not exists btcsim_blocks_active_height on btcsim_blocks (chain, height) where active;

-- Every transaction the node has seen. block_hash: the active-chain block holding it (null when unconfirmed);
-- in_mempool: waiting for a block. Neither: dropped (a reorg without its transactions), kept for old blocks.
-- kind: 'coinbase', 'faucet' (the simulator's money from nowhere) or 'standard'.
create table if not exists btcsim_transactions (
  chain text not null,
  txid text not null,
  wtxid text not null,
  raw bytea not null,
  kind text not null check (kind in ('coinbase', 'faucet', 'standard')),
  fee bigint,
  vsize integer not null,
  block_hash text,
  in_mempool boolean not null default false,
  mempool_time bigint,
  seq bigserial not null,
  primary key (chain, txid),
  check (not (in_mempool and block_hash is not null))
);
create index if not exists btcsim_transactions_mempool on btcsim_transactions (chain, seq) where in_mempool;
create index if not exists btcsim_transactions_block on btcsim_transactions (chain, block_hash);

-- Which transactions a block holds, in order (position 0 is its coinbase); kept for blocks off the active chain.
create table if not exists btcsim_block_transactions (
  chain text not null,
  block_hash text not null,
  position integer not null,
  txid text not null,
  primary key (chain, block_hash, position)
);

-- The outputs of every transaction (value in satoshis) and the outpoints each standard transaction spends. An
-- output is unspent when its transaction is live (confirmed or in the mempool) and no live transaction spends it.
create table if not exists btcsim_outputs (
  chain text not null,
  txid text not null,
  n integer not null,
  value bigint not null check (value >= 0),
  script bytea not null,
  primary key (chain, txid, n)
);
create table if not exists btcsim_inputs (
  chain text not null,
  txid text not null,
  vin integer not null,
  prev_txid text not null,
  prev_n integer not null,
  primary key (chain, txid, vin)
);
create index if not exists btcsim_inputs_prevout on btcsim_inputs (chain, prev_txid, prev_n);
