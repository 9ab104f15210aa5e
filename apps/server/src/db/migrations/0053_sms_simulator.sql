-- The SMS simulator (packages/provider-sims/src/sms): the messages a Twilio-like provider accepted, as its own
-- state. The exchange's code never reads these tables (scripts/layers: simulator-tables-in-the-server); it learns
-- of a message over the provider's API and the developer's phone inbox, as it would of the real provider.
create table smssim_messages (
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
create index smssim_messages_to_idx on smssim_messages (to_number, created_at desc);
-- The texts not shown yet, which the simulator drops after an hour.
create index smssim_messages_unread_idx on smssim_messages (created_at) where body_sealed is not null;
