-- Identity verification (KYC). The exchange's side: one applicant per user at the provider, every webhook
-- received (idempotent by type and correlation id), and the documents users upload themselves.
create table kyc_applicants (
  user_id          bigint primary key references users(id) on delete cascade,
  applicant_id     text unique,
  level_name       text not null,
  -- createdAtMs of the newest webhook applied; an older one is stale and ignored.
  applied_at_ms    bigint not null default 0,
  review_status    text,
  review_answer    text,
  reject_type      text,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);

create table kyc_webhook_events (
  id             bigserial primary key,
  type           text not null,
  correlation_id text not null,
  applicant_id   text,
  user_id        bigint references users(id) on delete set null,
  created_at_ms  bigint,
  -- applied, stale, other_level, unknown_applicant, ignored
  outcome        text not null,
  payload        jsonb not null,
  received_at    timestamptz not null default now(),
  unique (type, correlation_id)
);

create table kyc_documents (
  id          bigserial primary key,
  user_id     bigint not null references users(id) on delete cascade,
  doc_type    text not null,
  doc_number  text,
  doc_expire  date,
  file_name   text not null,
  mime_type   text not null check (mime_type in ('image/jpeg', 'image/png', 'application/pdf')),
  size_bytes  integer not null check (size_bytes > 0 and size_bytes <= 2097152),
  content     bytea not null,
  provider_doc_id text,
  created_at  timestamptz not null default now()
);
create index kyc_documents_user_idx on kyc_documents (user_id, id);

-- The alternative (net-verify) flow: one scan reference per initiation.
create table kyc_net_verify_scans (
  scan_ref     text primary key,
  user_id      bigint not null references users(id) on delete cascade,
  redirect_url text not null,
  state        text not null default 'initiated' check (state in ('initiated', 'submitted')),
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);

-- (The KYC simulator's tables, made here until issue 34, are the simulators' own now: packages/provider-sims/migrations.)
