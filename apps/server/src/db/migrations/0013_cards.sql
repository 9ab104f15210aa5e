-- Card suite, part 1: issuing. The exchange's side: one card holder per user, the holder's document images
-- (kept here, so backups include them), cards (the number encrypted at rest), the fees charged for them, and
-- the issuer's webhooks already processed (idempotent by event token).
create table card_holders (
  id                bigserial primary key,
  user_id           bigint not null unique references users(id) on delete cascade,
  -- The cardholder ("user") at the issuer.
  issuer_user_token text not null unique,
  first_name        text not null,
  last_name         text not null,
  country           text not null check (country ~ '^[A-Z]{2}$'),
  id_type           text not null check (id_type in ('id_card', 'passport')),
  -- Uppercased by the request schema; one holder per document number across all users.
  id_no             text not null unique check (id_no = upper(id_no)),
  status            text not null default 'pending'
                    check (status in ('pending', 'under_review', 'activation_successful', 'rejection', 'incomplete_information')),
  description       text,
  -- The issuer's KYC request under review; a decision about an older one is ignored.
  kyc_token         text,
  submitted_at      timestamptz,
  reviewed_at       timestamptz,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now()
);

create table card_holder_documents (
  id                    bigserial primary key,
  holder_id             bigint not null references card_holders(id) on delete cascade,
  doc_type              text not null check (doc_type in ('id_card_front', 'id_card_back', 'passport', 'selfie')),
  mime_type             text not null check (mime_type in ('image/jpeg', 'image/png')),
  size_bytes            integer not null check (size_bytes > 0 and size_bytes < 10485760),
  content               bytea not null,
  issuer_document_token text,
  created_at            timestamptz not null default now(),
  updated_at            timestamptz not null default now(),
  unique (holder_id, doc_type)
);

create table cards (
  id               bigserial primary key,
  user_id          bigint not null references users(id) on delete cascade,
  -- Chosen by us before the issuer is called, so a retried order is the same card.
  issuer_token     text not null unique,
  -- AES-256-GCM with the server key; null only while the order is with the issuer.
  pan_enc          text,
  -- Keyed hash of the number, to find a card by the number a user types.
  pan_hash         text unique,
  first4           text check (first4 ~ '^\d{4}$'),
  last4            text check (last4 ~ '^\d{4}$'),
  -- MMYY, as the issuer gives it.
  expiry           text check (expiry ~ '^\d{4}$'),
  -- ordering: a slot taken while the issuer is called; replacement_pending: a new card not delivered yet;
  -- terminated: replaced (both hidden from the user); the others are the wire statuses.
  status           text not null check (status in ('ordering', 'unverified', 'normal', 'loss',
                     'Card replacement processing', 'replacement_pending', 'terminated')),
  -- Suspended at the issuer because its annual fee could not be charged (until paid).
  fee_suspended    boolean not null default false,
  -- Fee periods paid: 0 = unpaid (activation + first year due); n = paid up to year n.
  paid_periods     integer not null default 0 check (paid_periods >= 0),
  -- Refused charges of the current period, so each retry is a new core command (a success happens once).
  fee_attempts     integer not null default 0,
  next_charge_on   date,
  shipping         jsonb not null,
  fulfillment      text check (fulfillment in ('ordered', 'shipped', 'delivered')),
  replaces_card_id bigint references cards(id),
  replaced_by      bigint references cards(id),
  activated_at     timestamptz,
  terminated_at    timestamptz,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
create index cards_user_idx on cards (user_id, id);
create index cards_due_idx on cards (next_charge_on) where next_charge_on is not null;

create table card_charges (
  id                 bigserial primary key,
  card_id            bigint not null references cards(id) on delete cascade,
  user_id            bigint not null references users(id) on delete cascade,
  fee_type           text not null check (fee_type in ('activation', 'annual')),
  period             integer not null,
  currency           text not null,
  fee                numeric not null check (fee > 0),
  -- The core command that took the money (client command id).
  command_ref        text not null,
  fee_deduction_date date not null,
  created_at         timestamptz not null default now(),
  unique (card_id, period, fee_type)
);
create index card_charges_card_idx on card_charges (card_id, id);

create table card_webhook_events (
  token       text primary key,
  type        text not null,
  -- applied, ignored, stale, unknown
  outcome     text not null,
  payload     jsonb not null,
  received_at timestamptz not null default now()
);

-- (The card issuer simulator's tables, made here until issue 34, are the simulators' own now: packages/provider-sims/migrations.)
