-- SMS delivery status (issue 34): a text's status as its provider reports it in a status callback (Twilio's
-- MessageStatus and ErrorCode), kept with the text's record, which is found by the provider's message SID. The
-- status only moves forward (queued < sending < sent < delivered, undelivered, failed < read): a late or repeated
-- callback changes nothing.
alter table mail_outbox add column delivery_status text;
alter table mail_outbox add column delivery_error_code integer;
alter table mail_outbox add column delivery_updated_at timestamptz;
create index mail_outbox_provider_ref_idx on mail_outbox (provider_ref) where provider_ref is not null;

-- The SMS simulator's status callbacks (packages/provider-sims/src/sms): each status change of a message sent with
-- a StatusCallback URL, posted there when it falls due, signed as Twilio signs, retried a bounded number of times.
create table smssim_callbacks (
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
create index smssim_callbacks_due_idx on smssim_callbacks (next_attempt_at) where delivered_at is null;

create trigger smssim_callbacks_work after insert on smssim_callbacks
  for each statement execute function notify_simulator_work('smssim_callbacks');
