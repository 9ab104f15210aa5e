-- SMS delivery status (issue 34): a text's status as its provider reports it in a status callback (Twilio's
-- MessageStatus and ErrorCode), kept with the text's record, which is found by the provider's message SID. The
-- status only moves forward (queued < sending < sent < delivered, undelivered, failed < read): a late or repeated
-- callback changes nothing.
alter table mail_outbox add column delivery_status text;
alter table mail_outbox add column delivery_error_code integer;
alter table mail_outbox add column delivery_updated_at timestamptz;
create index mail_outbox_provider_ref_idx on mail_outbox (provider_ref) where provider_ref is not null;

-- (The SMS simulator's status callbacks, `smssim_callbacks`, are the simulators' own table:
-- packages/provider-sims/migrations.)
