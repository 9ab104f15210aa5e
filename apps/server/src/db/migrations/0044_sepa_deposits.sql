-- EUR deposits by SEPA credit transfer to the exchange's collection account (issue 31, part 3).
--
-- (The bank simulator's side, its booked credit transfers and its outbox of signed notifications, made here until
-- issue 34, is the simulators' own now: packages/provider-sims/migrations.)

-- The exchange's side. Each verified business gets one reference (an ISO 11649 RF creditor reference) that it
-- puts on its transfers; the reference says whose the money is.
create table bank_deposit_references (
  user_id    bigint primary key references users(id),
  reference  text not null unique,
  created_at timestamptz not null default now()
);

-- Every incoming transfer the bank reported, once (unique on the bank's transaction id): credited to the owner of
-- its reference, or queued for an operator (no reference, an unknown one, an account that is not a verified
-- business, another currency), who assigns it to an account (credited) or marks it for return.
create table bank_transfers (
  id                     bigserial primary key,
  bank_transaction_id    text not null unique,
  amount                 numeric(20, 2) not null check (amount > 0),
  currency               text not null,
  debtor_name            text not null,
  debtor_iban            text not null,
  remittance_information text,
  creditor_reference     text,
  end_to_end_id          text not null,
  booking_date           date not null,
  state                  text not null default 'received'
    check (state in ('received', 'crediting', 'credited', 'queued', 'returned')),
  queue_reason           text
    check (queue_reason in ('missing_reference', 'unknown_reference', 'not_verified', 'wrong_currency')),
  user_id                bigint references users(id),
  decided_by             bigint references users(id),
  decided_at             timestamptz,
  decision_note          text,
  created_at             timestamptz not null default now(),
  updated_at             timestamptz not null default now()
);
create index bank_transfers_queue_idx on bank_transfers (id) where state = 'queued';

-- Staff never assign a transfer to their own account (as migration 0022 does for the other decisions).
create trigger bank_transfers_not_own before insert or update of user_id, decided_by on bank_transfers
  for each row when (new.decided_by = new.user_id)
  execute function refuse_own_decision();

-- A credited transfer is a deposit of the user, in the deposit history like any other: a bank deposit has no
-- blockchain (its txid is the bank's transaction id, its address the sender's IBAN).
alter table deposits alter column blockchain_key drop not null;
alter table deposits add column bank_transfer_id bigint unique references bank_transfers(id);
