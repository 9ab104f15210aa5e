-- Custody (issue 26): addresses come from extended public keys, keys live only in the signer.

-- The signer publishes the extended public key of each account it derives (m/purpose'/coin'/account'): all any
-- other process needs to make our addresses. A different key for an account already published means another
-- seed, and the signer refuses to start rather than mix two wallets.
create table custody_xpubs (
  purpose    integer not null,
  coin_type  integer not null,
  account    integer not null,
  xpub       text not null,
  created_at timestamptz not null default now(),
  primary key (purpose, coin_type, account)
);

-- The next unused deposit-address index per key scheme (networks of one scheme share it, so an address is never
-- handed to two users on two networks of the same scheme).
create table custody_key_counters (
  purpose    integer not null,
  coin_type  integer not null,
  next_index integer not null default 0,
  primary key (purpose, coin_type)
);

-- Per-address keys of earlier versions leave the tables the app reads. They are swept out (cli custody
-- sweep-legacy) and then retired; only the schema's owner can read this table.
create table legacy_wallet_keys (
  blockchain_key text not null references blockchains(key),
  address        text not null,
  kind           text not null check (kind in ('deposit', 'hot')),
  secret_enc     text,
  retired_at     timestamptz,
  primary key (blockchain_key, address)
);
insert into legacy_wallet_keys (blockchain_key, address, kind, secret_enc)
  select blockchain_key, address, 'deposit', secret_enc from deposit_addresses
  union all
  select blockchain_key, address, 'hot', secret_enc from hot_wallets
  on conflict do nothing;

-- A deposit address is the key index it was derived at; null for a legacy address (its key above).
alter table deposit_addresses drop column secret_enc;
alter table deposit_addresses add column key_index integer;
-- The hot wallet's address is account 1, index 0 of the network's scheme: set again by the app from the xpub.
delete from hot_wallets;
alter table hot_wallets drop column secret_enc;

-- The cold (watch-only) address of each network, as the signer's configuration names it (published by the
-- signer; it refuses a cold transfer anywhere else), and the hot wallet's bounds per currency.
create table cold_wallets (
  blockchain_key text primary key references blockchains(key),
  address        text not null,
  updated_at     timestamptz not null default now()
);
create table wallet_limits (
  blockchain_key text not null references blockchains(key),
  currency_id    text not null references currencies(id),
  -- Above this the excess goes to the cold address; below hot_min the console shows an alert and the refill.
  hot_max        numeric(36, 18),
  hot_min        numeric(36, 18),
  primary key (blockchain_key, currency_id),
  check (hot_max is null or hot_min is null or hot_min <= hot_max)
);

-- Everything the signer signed or refused, with the reason. Append-only for the app's role.
create table signer_log (
  id             bigserial primary key,
  blockchain_key text not null,
  purpose        text not null check (purpose in ('withdrawal', 'sweep', 'gas', 'cold')),
  -- `withdrawal:<id>` for a withdrawal; null otherwise.
  reference      text,
  decision       text not null check (decision in ('signed', 'refused')),
  reason         text,
  currency_id    text,
  amount         numeric(36, 18),
  destination    text,
  txid           text,
  created_at     timestamptz not null default now()
);
-- A withdrawal is signed once, whatever happens to the first signature.
create unique index signer_log_withdrawal_once on signer_log (reference)
  where purpose = 'withdrawal' and decision = 'signed';
create index signer_log_day_idx on signer_log (blockchain_key, currency_id, created_at)
  where decision = 'signed';

-- Movements between our own wallets: sweeps of deposit addresses to the hot wallet, gas top-ups of deposit
-- addresses for token sweeps, and hot → cold transfers.
create table custody_transfers (
  id             bigserial primary key,
  blockchain_key text not null references blockchains(key),
  kind           text not null check (kind in ('sweep', 'gas', 'cold')),
  currency_id    text not null references currencies(id),
  from_addresses text[] not null,
  to_address     text not null,
  amount         numeric(36, 18) not null,
  txid           text not null,
  state          text not null default 'pending' check (state in ('pending', 'confirmed', 'failed')),
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create index custody_transfers_open_idx on custody_transfers (blockchain_key, state) where state = 'pending';
create index custody_transfers_recent_idx on custody_transfers (created_at desc);

-- A swept deposit names the transfer that moved it.
alter table deposits add column custody_transfer_id bigint references custody_transfers(id);

-- Bitcoin and TRON speak their nodes' protocols now (a simulator of each by default).
update blockchains set client = 'bitcoin' where client = 'sim-btc';
update blockchains set client = 'tron' where client = 'sim-tron';
drop table sim_transactions;
drop table sim_addresses;
drop table sim_blocks;

-- Where a running app serves its development nodes (the chain simulators, the Hardhat devnet), so the operator
-- command line (`npm run audit`) reads the same chains. Never a real node's URL: those may carry credentials and
-- come from the configuration.
create table chain_endpoints (
  blockchain_key text primary key references blockchains(key),
  url            text not null,
  updated_at     timestamptz not null default now()
);
