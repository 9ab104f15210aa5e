-- Sanctions screening (issue 33, item 3). The operator imports the EU consolidated financial sanctions list
-- (`npm run cli -- sanctions import <file>`); names of customers, company owners and representatives, and
-- withdrawal beneficiaries are screened against it; a hit freezes the customer's new withdrawals until compliance
-- decides it.

-- Every import, kept as its record (date, file hash, counts). Exactly one is current: an import replaces the
-- whole list in one transaction (the previous list's entries are deleted, its record stays).
create table sanctions_lists (
  id             bigserial primary key,
  file_name      text not null,
  file_sha256    text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  -- The file's own `generationDate` attribute, as written there.
  generated_at   text,
  entity_count   integer not null check (entity_count >= 0),
  name_count     integer not null check (name_count >= 0),
  current        boolean not null default true,
  imported_at    timestamptz not null default now()
);
create unique index sanctions_lists_one_current on sanctions_lists (current) where current;

-- The current list's entities (sanctionEntity) and their names (nameAlias).
create table sanctions_entries (
  id            bigserial primary key,
  list_id       bigint not null references sanctions_lists(id) on delete cascade,
  logical_id    text not null,
  eu_reference  text,
  subject_type  text not null,
  regulation    text,
  birthdates    text[] not null default '{}',
  citizenships  text[] not null default '{}',
  unique (list_id, logical_id)
);

create table sanctions_names (
  id          bigserial primary key,
  entry_id    bigint not null references sanctions_entries(id) on delete cascade,
  whole_name  text not null,
  function    text
);
create index sanctions_names_entry_idx on sanctions_names (entry_id);

-- A screening hit: one name of a customer's (their profile, their company or its people, a beneficiary) scored at
-- or above the threshold against one list entry. The entry is copied in, so the hit stays readable after a newer
-- list replaces it. While a customer has an open or confirmed hit, new withdrawals and transfers out are refused.
-- The same name against the same entry is never raised twice: a false positive stays decided until the name or
-- the entry changes.
create table sanctions_hits (
  id                  bigserial primary key,
  user_id             bigint not null references users(id),
  subject_kind        text not null check (subject_kind in ('customer', 'company', 'representative', 'beneficiary')),
  subject_name        text not null,
  list_id             bigint not null references sanctions_lists(id),
  entry_logical_id    text not null,
  entry_reference     text,
  entry_name          text not null,
  entry_subject_type  text not null,
  entry_regulation    text,
  score               integer not null check (score between 0 and 100),
  state               text not null default 'open' check (state in ('open', 'false_positive', 'confirmed')),
  decided_by          bigint references users(id),
  decided_at          timestamptz,
  reason              text,
  created_at          timestamptz not null default now(),
  unique (user_id, subject_kind, subject_name, entry_logical_id)
);
create index sanctions_hits_open_idx on sanctions_hits (user_id) where state <> 'false_positive';

-- Staff never decide a hit on their own account (migration 0022's rule, enforced here too).
create trigger sanctions_hits_not_own before insert or update of user_id, decided_by on sanctions_hits
  for each row when (new.decided_by = new.user_id)
  execute function refuse_own_decision();

-- When each customer was last screened, and when the daily screening is next due.
create table sanctions_screened (
  user_id      bigint primary key references users(id) on delete cascade,
  list_id      bigint references sanctions_lists(id) on delete set null,
  screened_at  timestamptz not null,
  due_at       timestamptz not null
);
create index sanctions_screened_due_idx on sanctions_screened (due_at);

-- Customers whose screened names changed: the screening job screens them within seconds, whatever path changed
-- the name (registration, profile, company, representatives, beneficiaries).
create table sanctions_queue (
  user_id    bigint primary key references users(id) on delete cascade,
  queued_at  timestamptz not null default clock_timestamp()
);

create function sanctions_enqueue() returns trigger language plpgsql as $$
declare
  owner bigint;
begin
  if tg_table_name = 'company_representatives' then
    select user_id into owner from companies where id = new.company_id;
  else
    owner := new.user_id;
  end if;
  if owner is not null then
    insert into sanctions_queue (user_id) values (owner)
      on conflict (user_id) do update set queued_at = excluded.queued_at;
  end if;
  return new;
end
$$;

create trigger profiles_sanctions after insert or update of first_name, middle_name, last_name on profiles
  for each row execute function sanctions_enqueue();
create trigger companies_sanctions after insert or update of name on companies
  for each row execute function sanctions_enqueue();
create trigger company_representatives_sanctions after insert or update of name on company_representatives
  for each row execute function sanctions_enqueue();
create trigger beneficiaries_sanctions after insert or update of name, description on beneficiaries
  for each row execute function sanctions_enqueue();
