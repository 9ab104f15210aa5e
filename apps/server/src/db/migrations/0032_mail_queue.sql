-- Mail off the request path: with SMTP configured, a request only queues its message here (its one-time secret
-- sealed with the server key) and a background sender delivers it, with short time limits, retried with back-off
-- a bounded number of times; a message it gives up on stays as a dead letter (`dead_at`, its secret dropped).
alter table mail_outbox add column queued boolean not null default false;
alter table mail_outbox add column attempts integer not null default 0;
alter table mail_outbox add column next_attempt_at timestamptz;
alter table mail_outbox add column dead_at timestamptz;

create index mail_outbox_queued_idx on mail_outbox (next_attempt_at) where queued;

-- A queued message wakes the sender of whichever process runs it (payload `o:mail_outbox`, see 0031).
create trigger mail_outbox_work after insert on mail_outbox
  for each row when (new.queued) execute function notify_simulator_work('mail_outbox');
