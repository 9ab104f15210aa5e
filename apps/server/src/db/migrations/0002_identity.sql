-- Sessions: the cookie holds a random token; only its SHA-256 is stored.
create table sessions (
  id           text primary key,
  user_id      bigint not null references users(id) on delete cascade,
  csrf_token   text not null,
  ip           text,
  user_agent   text,
  created_at   timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at   timestamptz not null,
  revoked_at   timestamptz
);
create index sessions_user_idx on sessions (user_id) where revoked_at is null;

-- One-time codes: stored as a keyed hash, expiring, single use, attempt-limited; one live code per target.
create table one_time_codes (
  id          bigserial primary key,
  user_id     bigint references users(id) on delete cascade,
  purpose     text not null,
  channel     text not null check (channel in ('email', 'sms')),
  destination text not null,
  code_hash   text not null,
  attempts    integer not null default 0,
  expires_at  timestamptz not null,
  consumed_at timestamptz,
  created_at  timestamptz not null default now()
);
create unique index one_time_codes_live_idx on one_time_codes (purpose, channel, destination)
  where consumed_at is null;

-- Failed logins per identifier (known or not), so unknown and known emails behave alike.
create table login_failures (
  identifier   text primary key,
  failures     integer not null default 0,
  locked_until timestamptz,
  updated_at   timestamptz not null default now()
);

alter table users
  add column otp_secret_enc text,
  add column otp_pending_secret_enc text,
  add column otp_last_step bigint not null default 0,
  add column password_changed_at timestamptz,
  add column anti_phishing_phrase text;

create table api_keys (
  id          bigserial primary key,
  user_id     bigint not null references users(id) on delete cascade,
  kid         text not null unique,
  algorithm   text not null default 'HS256',
  secret_enc  text not null,
  state       text not null default 'active' check (state in ('active', 'inactive')),
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create index api_keys_user_idx on api_keys (user_id);

-- Security log: logins, failures and every security change, with where it came from.
create table activities (
  id         bigserial primary key,
  user_id    bigint references users(id) on delete cascade,
  action     text not null,
  result     text not null check (result in ('succeed', 'failed')),
  topic      text not null default 'session',
  ip         text,
  user_agent text,
  data       jsonb,
  created_at timestamptz not null default now()
);
create index activities_user_idx on activities (user_id, created_at desc);

-- Keys the server generates for itself (code hashing pepper, encryption at rest) unless given by env.
create table app_secrets (
  name       text primary key,
  value      text not null,
  created_at timestamptz not null default now()
);
