-- One-time secrets (codes, reset tokens, beneficiary pins, card PINs) are no longer kept readable in the outbox.
-- A message is kept as its template: `subject` and `body` hold `{{secret}}` where its secret went, and
-- `template` says what it was (`code.login`, `password_reset`, ...). Only a development outbox (DEV_TOOLS, no
-- SMTP) keeps the secret, sealed with the server key in `secret_enc`, until the outbox API has shown it once.
alter table mail_outbox add column template text not null default 'unknown';
alter table mail_outbox add column secret_enc text;
alter table mail_outbox alter column template drop default;

-- Messages written before this held their secrets in plain text: keep the record that they were sent (channel,
-- recipient, when), not what they said.
update mail_outbox set subject = '', body = '[redacted]';
