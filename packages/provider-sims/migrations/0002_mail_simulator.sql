-- The mail simulator (issue 34): a mail server that takes the exchange's mail over SMTP, as a real one would, and
-- keeps each message for the developer's mailbox, its text sealed with the simulator's key until the mailbox shows
-- it once. The exchange's `mail_outbox` keeps only its own record of what it sent (never the code a message
-- carried), as with a real mail server.
create table if not exists mailsim_messages (
  id            bigserial primary key,
  -- The Message-ID header the sender gave (with its angle brackets), which the sender records as its reference.
  message_id    text not null,
  mail_from     text not null,
  -- One row per envelope recipient (RCPT TO), lower-cased.
  rcpt_to       text not null,
  -- The subject and the plain text (a subject may carry a code too), sealed together until the mailbox shows them
  -- once (then null); dropped unread after an hour.
  content_sealed bytea,
  text_length   integer not null,
  size_bytes    integer not null,
  received_at   timestamptz not null default now(),
  shown_at      timestamptz
);
create index if not exists mailsim_messages_message_id_idx on mailsim_messages (message_id);
create index if not exists mailsim_messages_rcpt_idx on mailsim_messages (rcpt_to, id desc);
create index if not exists mailsim_messages_unread_idx on mailsim_messages (received_at) where content_sealed is not null;
