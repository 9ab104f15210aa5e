-- The provider simulators' own tables (KYC as Sumsub, the card issuer as Marqeta, the bank, the travel-rule
-- network, SMS as Twilio), recorded in `sim_schema_migrations`, apart from the exchange's schema. Until issue 34
-- the exchange's migrations made them (0008, 0013, 0014, 0020, 0025, 0031, 0042, 0044, 0048, 0049, 0053, 0055): every
-- statement here is `if not exists` (or `or replace`, or checks first), so that a database those made, at any
-- version, adopts its tables and rows as they are, and is brought to the same shapes as a new one: each table is
-- made as it was first, then changed as the later versions changed it (the same columns in the same order).

-- The KYC simulator (Sumsub): its applicants, their documents, its SDK access tokens and its webhooks to the exchange.
create table if not exists kyc_sim_applicants (
  id               text primary key,
  inspection_id    text not null,
  external_user_id text not null,
  level_name       text not null,
  email            text,
  phone            text,
  info             jsonb not null default '{}',
  review_status    text not null default 'init' check (review_status in ('init', 'pending', 'onHold', 'completed')),
  review_answer    text check (review_answer in ('GREEN', 'RED')),
  reject_type      text check (reject_type in ('RETRY', 'FINAL')),
  auto_review_at   timestamptz,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  unique (external_user_id, level_name)
);

create table if not exists kyc_sim_documents (
  id              bigserial primary key,
  applicant_id    text not null references kyc_sim_applicants(id) on delete cascade,
  id_doc_type     text not null,
  id_doc_sub_type text,
  country         text,
  file_name       text,
  mime_type       text not null,
  content         bytea not null,
  created_at      timestamptz not null default now()
);

create table if not exists kyc_sim_access_tokens (
  token            text primary key,
  external_user_id text not null,
  level_name       text not null,
  expires_at       timestamptz not null
);

-- Webhooks the simulator owes the exchange; delivered in order, retried with back-off.
create table if not exists kyc_sim_webhooks (
  id              bigserial primary key,
  payload         text not null,
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at    timestamptz,
  last_error      text,
  created_at      timestamptz not null default now()
);
create index if not exists kyc_sim_webhooks_due_idx on kyc_sim_webhooks (next_attempt_at) where delivered_at is null;

-- The card issuer simulator, shaped on Marqeta's Core API: its own state, as an issuer would keep it.
create table if not exists cardsim_users (
  token              text primary key,
  first_name         text,
  last_name          text,
  email              text,
  phone              text,
  address1           text,
  city               text,
  postal_code        text,
  country            text,
  identifications    jsonb not null default '[]',
  status             text not null default 'UNVERIFIED' check (status in ('UNVERIFIED', 'ACTIVE', 'SUSPENDED')),
  created_time       timestamptz not null default now(),
  last_modified_time timestamptz not null default now()
);

-- Document images: the simulator's own extension (Marqeta's /kyc takes no documents).
create table if not exists cardsim_documents (
  id           bigserial primary key,
  user_token   text not null references cardsim_users(token) on delete cascade,
  doc_type     text not null,
  mime_type    text not null,
  size_bytes   integer not null,
  content      bytea not null,
  created_time timestamptz not null default now(),
  unique (user_token, doc_type)
);

create table if not exists cardsim_kyc (
  token              text primary key,
  user_token         text not null references cardsim_users(token) on delete cascade,
  status             text not null check (status in ('pending', 'success', 'failure')),
  codes              jsonb not null default '[]',
  auto_review_at     timestamptz,
  created_time       timestamptz not null default now(),
  last_modified_time timestamptz not null default now()
);
create index if not exists cardsim_kyc_user_idx on cardsim_kyc (user_token, created_time desc);

create table if not exists cardsim_cards (
  token              text primary key,
  user_token         text not null references cardsim_users(token) on delete cascade,
  card_product_token text not null,
  -- The number and the PIN, encrypted with the simulator's own key.
  pan_enc            text not null,
  pan_hash           text not null unique,
  last_four          text not null,
  expiration         text not null,
  pin_enc            text not null,
  state              text not null check (state in ('UNACTIVATED', 'ACTIVE', 'SUSPENDED', 'TERMINATED')),
  fulfillment_status text not null check (fulfillment_status in ('ISSUED', 'ORDERED', 'SHIPPED', 'DELIVERED')),
  shipping           jsonb not null,
  new_pan_from       text,
  ship_at            timestamptz,
  deliver_at         timestamptz,
  created_time       timestamptz not null default now(),
  last_modified_time timestamptz not null default now()
);
create index if not exists cardsim_cards_due_idx on cardsim_cards (ship_at, deliver_at)
  where fulfillment_status in ('ORDERED', 'SHIPPED');

create table if not exists cardsim_transitions (
  token              text primary key,
  card_token         text not null references cardsim_cards(token) on delete cascade,
  type               text not null,
  state              text not null,
  fulfillment_status text not null,
  channel            text not null,
  reason_code        text,
  created_time       timestamptz not null default now()
);

create table if not exists cardsim_pin_tokens (
  token      text primary key,
  card_token text not null references cardsim_cards(token) on delete cascade,
  expires_at timestamptz not null,
  used_at    timestamptz
);

-- Webhooks the simulator owes the exchange; delivered in order, retried with back-off.
create table if not exists cardsim_webhooks (
  id              bigserial primary key,
  payload         text not null,
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at    timestamptz,
  last_error      text,
  created_at      timestamptz not null default now()
);
create index if not exists cardsim_webhooks_due_idx on cardsim_webhooks (next_attempt_at) where delivered_at is null;

-- The card's balance (USDT units), as an issuer keeps a card's general purpose account.
alter table cardsim_cards add column if not exists balance numeric not null default 0;

-- Funding orders (`POST /gpaorders`): pending until `settle_at`, then completed (the card is credited) or
-- declined (the card is no longer active).
create table if not exists cardsim_gpaorders (
  token                text primary key,
  user_token           text not null references cardsim_users(token) on delete cascade,
  card_token           text not null references cardsim_cards(token) on delete cascade,
  amount               numeric not null check (amount > 0),
  currency_code        text not null,
  funding_source_token text not null,
  state                text not null check (state in ('PENDING', 'COMPLETION', 'DECLINED')),
  settle_at            timestamptz not null,
  created_time         timestamptz not null default now(),
  last_modified_time   timestamptz not null default now()
);
create index if not exists cardsim_gpaorders_due_idx on cardsim_gpaorders (settle_at) where state = 'PENDING';

-- The card network's transactions (the statement), with the spec's type codes: 100 top-up, 150
-- pre-authorization, 151 payment, 2/3 reversal, 10 refund, 110 ATM withdrawal, 500 fee.
create table if not exists cardsim_transactions (
  token         text primary key,
  card_token    text not null references cardsim_cards(token) on delete cascade,
  type_code     integer not null,
  -- pending (authorised, not cleared), cleared (an authorisation whose clearing is the settled row), settled,
  -- declined, reversed
  status        text not null check (status in ('pending', 'cleared', 'settled', 'declined', 'reversed')),
  -- Signed: negative leaves the card.
  eur_cents     numeric not null,
  usdt_units    numeric not null,
  -- EUR per USDT.
  rate          numeric not null,
  merchant      text,
  decline_reason text,
  -- The transaction this one follows (a clearing its authorisation, a refund or reversal its purchase).
  related_token text references cardsim_transactions(token),
  created_time  timestamptz not null default now(),
  settled_time  timestamptz
);
create index if not exists cardsim_transactions_card_idx on cardsim_transactions (card_token, created_time desc);

-- The KYC reviewer's comment on a rejection or a retry.
alter table kyc_sim_applicants add column if not exists moderation_comment text;

-- Document images are sealed with the simulator's key (iv | ciphertext | tag); `content` is the plain copy of rows
-- from before sealing, emptied when the simulator starts; a row holds exactly one of the two. The card issuer's
-- copy of a holder's identifications (type and number) is sealed with its data key.
alter table kyc_sim_documents alter column content drop not null, add column if not exists content_sealed bytea;
alter table cardsim_documents alter column content drop not null, add column if not exists content_sealed bytea;
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'kyc_sim_documents_content_once'
                   and conrelid = 'kyc_sim_documents'::regclass) then
    alter table kyc_sim_documents
      add constraint kyc_sim_documents_content_once check ((content is null) <> (content_sealed is null));
  end if;
  if not exists (select 1 from pg_constraint where conname = 'cardsim_documents_content_once'
                   and conrelid = 'cardsim_documents'::regclass) then
    alter table cardsim_documents
      add constraint cardsim_documents_content_once check ((content is null) <> (content_sealed is null));
  end if;
end
$$;
alter table cardsim_users add column if not exists identifications_sealed text;

-- The KYC simulator keeps, as Sumsub does, whether an applicant is a person or a company (`type` at creation).
alter table kyc_sim_applicants add column if not exists applicant_type text not null default 'individual'
  check (applicant_type in ('individual', 'company'));

-- The bank simulator: the credit transfers booked on the collection account, with the fields a camt.054 entry
-- carries, and its outbox of signed notifications to the exchange.
create table if not exists banksim_incoming (
  id                   bigserial primary key,
  -- The bank's own id of the booked entry (camt AcctSvcrRef): what the exchange is idempotent on.
  transaction_id       text not null unique,
  -- The sender's idempotency key: a repeated "send" books nothing new.
  idempotency_key      text not null unique,
  creditor_iban        text not null,
  amount               numeric(20, 2) not null check (amount > 0),
  currency             text not null,
  debtor_name          text not null,
  debtor_iban          text not null,
  remittance_unstructured text,
  creditor_reference   text,
  end_to_end_id        text not null,
  booking_date         date not null,
  created_at           timestamptz not null default now()
);

create table if not exists banksim_webhooks (
  id              bigserial primary key,
  payload         text not null,
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at    timestamptz,
  last_error      text,
  created_at      timestamptz not null default now()
);
create index if not exists banksim_webhooks_due_idx on banksim_webhooks (next_attempt_at) where delivered_at is null;

-- The travel-rule network's simulator: how each provider of the directory answers (accept unless told
-- otherwise), every message it received with its answer, which sender addresses belong to a provider, and the
-- originator records other providers delivered for transfers to the exchange's addresses.
create table if not exists travel_rule_sim_providers (
  provider_id text primary key,
  behaviour   text not null check (behaviour in ('accept', 'refuse', 'timeout'))
);
create table if not exists travel_rule_sim_messages (
  id          bigserial primary key,
  reference   text not null unique,
  provider_id text not null,
  payload     jsonb not null,
  answer      text not null check (answer in ('accepted', 'refused', 'timeout')),
  reason      text,
  received_at timestamptz not null default now()
);
create table if not exists travel_rule_sim_addresses (
  blockchain_key text not null,
  address        text not null,
  provider_id    text not null,
  primary key (blockchain_key, address)
);
create table if not exists travel_rule_sim_incoming (
  blockchain_key text not null,
  txid           text not null,
  address        text not null,
  provider_id    text not null,
  payload        jsonb not null,
  created_at     timestamptz not null default now(),
  primary key (blockchain_key, txid, address)
);

-- The SMS simulator (Twilio): the messages it accepted. The exchange learns of a message over the provider's API
-- and the developer's phone inbox, as it would of the real provider.
create table if not exists smssim_messages (
  -- Twilio's message SID: SM and 32 hex digits.
  sid                   text primary key check (sid ~ '^SM[0-9a-f]{32}$'),
  account_sid           text not null,
  to_number             text not null,
  from_number           text,
  messaging_service_sid text,
  -- The delivered text, sealed with the simulator's key until the phone inbox shows it once (then null).
  body_sealed           bytea,
  body_length           integer not null,
  num_segments          integer not null,
  status_callback       text,
  created_at            timestamptz not null default now(),
  shown_at              timestamptz
);
create index if not exists smssim_messages_to_idx on smssim_messages (to_number, created_at desc);
-- The texts not shown yet, which the simulator drops after an hour.
create index if not exists smssim_messages_unread_idx on smssim_messages (created_at) where body_sealed is not null;

-- The SMS simulator's status callbacks: each status change of a message sent with a StatusCallback URL, posted there
-- when it falls due, signed as Twilio signs, retried a bounded number of times.
create table if not exists smssim_callbacks (
  id              bigserial primary key,
  sid             text not null references smssim_messages (sid) on delete cascade,
  status          text not null,
  url             text not null,
  -- The form-encoded parameters (MessageSid, MessageStatus, ErrorCode, ...): never the message's text.
  payload         text not null,
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null,
  delivered_at    timestamptz,
  last_error      text,
  unique (sid, status)
);
create index if not exists smssim_callbacks_due_idx on smssim_callbacks (next_attempt_at) where delivered_at is null;

-- The simulators wake when they have work, not every second: each change that queues a webhook or schedules work
-- announces itself on `exchange_changes` at commit, whoever made it (a process, the operator's command line, plain
-- SQL). Payload `o:<the simulator's webhook table>`; one notification per statement. The function is the
-- simulators' own (a database of an earlier version had these triggers call the exchange's
-- `notify_simulator_work`, which does the same: they are replaced by the same triggers on this one).
create or replace function sim_notify_work() returns trigger language plpgsql as $$
begin
  perform pg_notify('exchange_changes', 'o:' || tg_argv[0]);
  return null;
end
$$;

create or replace trigger kyc_sim_webhooks_work after insert on kyc_sim_webhooks
  for each statement execute function sim_notify_work('kyc_sim_webhooks');
create or replace trigger kyc_sim_applicants_work after insert or update of review_status, auto_review_at
  on kyc_sim_applicants for each statement execute function sim_notify_work('kyc_sim_webhooks');

create or replace trigger cardsim_webhooks_work after insert on cardsim_webhooks
  for each statement execute function sim_notify_work('cardsim_webhooks');
create or replace trigger cardsim_kyc_work after insert or update of status, auto_review_at on cardsim_kyc
  for each statement execute function sim_notify_work('cardsim_webhooks');
create or replace trigger cardsim_cards_work after insert or update of fulfillment_status, ship_at, deliver_at, balance
  on cardsim_cards for each statement execute function sim_notify_work('cardsim_webhooks');
create or replace trigger cardsim_gpaorders_work after insert or update of state, settle_at on cardsim_gpaorders
  for each statement execute function sim_notify_work('cardsim_webhooks');

create or replace trigger banksim_webhooks_work after insert on banksim_webhooks
  for each statement execute function sim_notify_work('banksim_webhooks');

create or replace trigger smssim_callbacks_work after insert on smssim_callbacks
  for each statement execute function sim_notify_work('smssim_callbacks');
