-- The provider's id of a message an SMS provider accepted (Twilio's message SID), kept with its record: the
-- development outbox asks the SMS simulator's phone inbox for the delivered text by it (issue 34, item 4).
alter table mail_outbox add column provider_ref text;
