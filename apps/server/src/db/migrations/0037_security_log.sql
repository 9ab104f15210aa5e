-- Devices (issue 31): each session gets an id of its own to show and to end it by. The primary key is the SHA-256
-- of the cookie token; it never leaves the server, so the list and `DELETE /resource/sessions/{id}` use this one.
alter table sessions add column public_id uuid not null default gen_random_uuid();
create unique index sessions_public_id_idx on sessions (public_id);
-- Why a session ended (logout, user, others, staff, idle, expired, password); null while it lives or for an end
-- recorded before this column. The security log says the same; this keeps the sweep from recording an end twice.
alter table sessions add column end_reason text;
-- The sweep that records idle and expired ends reads the sessions that still look live, oldest activity first.
create index sessions_unended_idx on sessions (last_seen_at) where revoked_at is null;
-- "A new device": the user's earlier successful logins are read at each login.
create index activities_logins_idx on activities (user_id, id) where action = 'login' and result = 'succeed';
-- Sessions that ended by inactivity or lifetime before this migration are marked ended here, silently: the sweep
-- records only the ends it sees happen, not a backlog of old ones all dated today.
update sessions set revoked_at = least(expires_at, last_seen_at + interval '60 minutes'),
       end_reason = case when expires_at <= last_seen_at + interval '60 minutes' then 'expired' else 'idle' end
 where revoked_at is null and (expires_at <= now() or last_seen_at <= now() - interval '60 minutes');
