-- Bitcoin: the adapter's own records (btc_*): the outputs our addresses hold and the transactions we broadcast.
-- (The simulator's chain, btcsim_*, made here until issue 34, is the chain simulator's own now:
-- packages/chain-sim/migrations/bitcoin.)

-- The adapter's view of the outputs paying our addresses (deposits seen in blocks, change and sweeps we made).
-- status: 'unspent'; 'spent' by our transaction spent_by (broadcast); 'gone' when the node no longer has it
-- (gettxout null: spent elsewhere or reorganised away); a block seen again with it makes it 'unspent' again.
create table btc_utxos (
  chain text not null,
  txid text not null,
  vout integer not null check (vout >= 0),
  address text not null,
  amount bigint not null check (amount > 0),
  script text not null,
  block_hash text,
  status text not null default 'unspent' check (status in ('unspent', 'spent', 'gone')),
  spent_by text,
  created_at timestamptz not null default now(),
  primary key (chain, txid, vout)
);
create index btc_utxos_address on btc_utxos (chain, address) where status = 'unspent';

-- The transactions we broadcast, with the block they were last seen in: a node without -txindex cannot find a
-- confirmed transaction by its id alone.
create table btc_transactions (
  chain text not null,
  txid text not null,
  outputs integer not null check (outputs > 0),
  block_hash text,
  created_at timestamptz not null default now(),
  primary key (chain, txid)
);
