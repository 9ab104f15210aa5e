-- Password reset links: only the token's SHA-256 is stored.
create table password_resets (
  token_hash text primary key,
  user_id    bigint not null references users(id) on delete cascade,
  expires_at timestamptz not null,
  used_at    timestamptz,
  created_at timestamptz not null default now()
);
create index password_resets_user_idx on password_resets (user_id);

-- When the session last passed a two-factor check (a phone change may follow within minutes).
alter table sessions add column otp_verified_at timestamptz;
