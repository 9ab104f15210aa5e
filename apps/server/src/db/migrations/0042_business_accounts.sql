-- Business accounts (issue 31, part 3): the company a business account holds, its representatives, and the
-- commercial register extract its verification asks for (the FAQ's "company documents for business accounts",
-- the AML policy's register extract under one year old and beneficial owners of 25 % plus one share).
-- The company is verified by the KYC provider's company (KYB) flow: `applicant_id` is its company applicant and
-- `review_state` follows that applicant's webhooks; level 3 of a business needs it verified as well as the
-- representative's own identity (the personal KYC of the account holder).
create table companies (
  id                  bigserial primary key,
  user_id             bigint not null unique references users(id) on delete cascade,
  name                text not null,
  registration_number text not null,
  country             text not null check (country ~ '^[A-Z]{3}$'),
  address             text not null,
  applicant_id        text unique,
  review_state        text not null default 'draft'
    check (review_state in ('draft', 'pending', 'onhold', 'retry', 'rejected', 'verified')),
  review_comment      text,
  applied_at_ms       bigint not null default 0,
  submitted_at        timestamptz,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now()
);

-- Who acts for the company and who owns it. `ownership` is a percentage (numeric, never a float); a share above
-- 25 % makes its holder a beneficial owner (role `ubo`), which the service enforces on every save.
create table company_representatives (
  id         bigserial primary key,
  company_id bigint not null references companies(id) on delete cascade,
  position   integer not null,
  name       text not null,
  role       text not null check (role in ('director', 'representative', 'shareholder', 'ubo')),
  ownership  numeric(7, 4) check (ownership >= 0 and ownership <= 100),
  unique (company_id, position)
);

-- Company documents, sealed like identity documents (migration 0025). `issued_on` is the date printed on the
-- extract: the verification refuses one issued more than a year before submission.
create table company_documents (
  id              bigserial primary key,
  company_id      bigint not null references companies(id) on delete cascade,
  doc_type        text not null check (doc_type in ('register_extract')),
  issued_on       date not null,
  file_name       text not null,
  mime_type       text not null check (mime_type in ('image/jpeg', 'image/png', 'application/pdf')),
  size_bytes      integer not null check (size_bytes > 0 and size_bytes <= 2097152),
  content_sealed  bytea not null,
  provider_doc_id text,
  created_at      timestamptz not null default now()
);
create index company_documents_company_idx on company_documents (company_id, id);
