-- Every process caches who a request is (sessions, API keys, users and what `GET /resource/users/me` shows) so
-- that a warm request reads no table. Each change to those rows announces itself on the `exchange_changes`
-- channel at commit, from whatever made it (an api process, another one, an operator's command, plain SQL), and
-- every listening process forgets the entry at once. Payloads: `u:<user id>`, `s:<session id>`, `k:<kid>`.
create function notify_auth_change() returns trigger language plpgsql as $$
declare
  affected record;
  payload text;
begin
  if tg_op = 'DELETE' then affected := old; else affected := new; end if;
  -- One branch per table: a record's fields are resolved when an expression is planned, so each branch may only
  -- name fields its table has.
  if tg_table_name = 'users' then
    payload := 'u:' || affected.id;
  elsif tg_table_name = 'sessions' then
    payload := 's:' || affected.id;
  elsif tg_table_name = 'api_keys' then
    payload := 'k:' || affected.kid;
  else
    payload := 'u:' || affected.user_id;
  end if;
  perform pg_notify('exchange_changes', payload);
  return null;
end
$$;

create trigger users_auth_change after update or delete on users
  for each row execute function notify_auth_change();
-- Touching `last_seen_at` (once a minute per live session) announces nothing: only an end does.
create trigger sessions_auth_change after update of revoked_at, expires_at, user_id or delete on sessions
  for each row execute function notify_auth_change();
create trigger api_keys_auth_change after update or delete on api_keys
  for each row execute function notify_auth_change();
create trigger labels_auth_change after insert or update or delete on labels
  for each row execute function notify_auth_change();
create trigger phones_auth_change after insert or update or delete on phones
  for each row execute function notify_auth_change();
create trigger profiles_auth_change after insert or update or delete on profiles
  for each row execute function notify_auth_change();

-- Counters of the rate limits and API-key nonces guard against abuse, not money: they need no WAL and no
-- flush at commit. After a crash they start empty (a rate window begins again; a nonce older than the
-- 5-second window is refused as expired anyway).
alter table rate_limit_hits set unlogged;
alter table api_key_nonces set unlogged;

-- Work for the wallet's background pass: a withdrawal or an adjustment created or moved on. The pass runs when
-- told (or when a chain moves, or every half minute), not every second against idle tables.
create function notify_wallet_work() returns trigger language plpgsql as $$
begin
  perform pg_notify('exchange_changes', 'w:' || tg_table_name);
  return null;
end
$$;

create trigger withdrawals_wallet_work after insert or update of state on withdrawals
  for each statement execute function notify_wallet_work();
create trigger adjustments_wallet_work after insert or update of state on adjustments
  for each statement execute function notify_wallet_work();
