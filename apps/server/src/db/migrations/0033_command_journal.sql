-- The command journal (issue 28): the exchange core appends each accepted batch of commands here, in one small
-- write, and answers after that commit. The engine is deterministic, so the state is a function of a snapshot and
-- the journal after it; orders, trades, balances and the ledger are projections written from the journal's
-- batches by the core's projector, which records how far it got in `core_projection.projected_seq` in the same
-- transaction as the rows it wrote.
create table core_journal (
  -- The batch number (engine_state.batch_seq is the newest).
  seq           bigint primary key,
  -- The term of the core that committed it (engine_state.core_term, raised at each takeover).
  term          bigint not null,
  -- The sequence number of the batch's first command; the others follow it, one each.
  first_command bigint not null,
  commands      integer not null check (commands > 0),
  -- When the batch was cut; every command carries its own time too (a replayed history has its own dates).
  at            timestamptz not null,
  -- The commands as the core applied them (see core/journal/codec.ts).
  body          text not null,
  -- When the batch was committed.
  created_at    timestamptz not null default now()
);
-- The body is written once and read only to replay: keeping it uncompressed costs disk, not the core's time.
alter table core_journal alter column body set storage external;

-- How far the projector has written the tables: everything after `projected_seq` is still only in the journal
-- (on an existing database every batch so far was written with its effects). A row of its own, so the journal's
-- appends (which update engine_state) never wait for a projection's transaction. `term` is the core that may
-- write it: a core claims it when it takes over, after any projection of its predecessor has finished.
create table core_projection (
  id            smallint primary key default 1 check (id = 1),
  projected_seq bigint not null,
  term          bigint not null
);
insert into core_projection (id, projected_seq, term) select 1, batch_seq, core_term from engine_state;
-- The sequence number the next command gets (commands are numbered from 1 once the journal starts).
alter table engine_state add column next_command bigint not null default 1;

-- Engine snapshots: the whole engine state after batch `seq`, so that a start or a takeover replays only the
-- journal after it, and `core verify` can prove that a replay reproduces the live state (`hash`).
create table core_snapshots (
  seq          bigint primary key,
  next_command bigint not null,
  hash         text not null,
  state        text not null,
  created_at   timestamptz not null default now()
);
alter table core_snapshots alter column state set storage external;

-- Every posting from the journal on names the command that made it (its sequence number) and its cause:
-- `kind` is the cause (order, trade, fee, deposit, withdrawal, adjustment, transfer, swap, card_topup, card_fee,
-- card_refund, liquidity) and `ref` what it refers to (order:<id>, trade:<id>, or the command's client id, such
-- as deposit:<id>). Earlier postings keep their batch (kind 'batch').
alter table ledger_postings add column command_seq bigint;
-- A statement of account reads one account's postings in command order.
create index ledger_postings_statement_idx on ledger_postings (account, currency_id, command_seq)
  where command_seq is not null;
