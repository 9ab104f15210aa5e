-- Retention erasure (issue 31, part 4): the AML policy keeps a closed account's correspondence 5 years and its
-- client records 8 years after the relationship ends (account_closures' two dates, migration 0041), "then
-- removed". A background job does it (apps/server/src/modules/account-closure/erasure.ts); each closure says when
-- each stage was done, so a stage runs once.
alter table account_closures add column correspondence_erased_at timestamptz,
  add column records_erased_at timestamptz;
create index account_closures_erase_due_idx on account_closures (correspondence_erase_at, records_erase_at)
  where state = 'closed' and (correspondence_erased_at is null or records_erased_at is null);

-- The trail of each erasure: whose account (its id and uid, which stay), which stage and category, how many rows,
-- when. Never what was removed. Append-only like the staff trail (migration 0019).
create table retention_erasures (
  id        bigserial primary key,
  user_id   bigint not null references users(id),
  uid       text not null,
  stage     text not null check (stage in ('correspondence', 'records')),
  category  text not null,
  rows      integer not null check (rows >= 0),
  -- The moment the job ran for (its "now"), and when the row was written.
  due_at    timestamptz not null,
  created_at timestamptz not null default now()
);
create index retention_erasures_user_idx on retention_erasures (user_id, id);

create function retention_erasures_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the retention erasure trail is append-only' using errcode = 'XC002';
end
$$;
create trigger retention_erasures_no_update before update or delete on retention_erasures
  for each row execute function retention_erasures_append_only();
create trigger retention_erasures_no_truncate before truncate on retention_erasures
  for each statement execute function retention_erasures_append_only();

-- The security log is append-only for the app's role (src/db/privileges.ts): the erasure of its personal fields
-- (the IP, the user agent, the free-form data that may hold addresses) goes through this function, which runs
-- with its owner's rights and only for a closed account whose records are due at `due` (the job's "now").
-- The entries stay (what happened, when); where from and on which device does not.
create function retention_erase_activities(target bigint, due timestamptz) returns integer
language plpgsql security definer set search_path from current as $$
declare
  erased integer;
begin
  if not exists (select 1 from account_closures c join users u on u.id = c.user_id
                  where c.user_id = target and c.state = 'closed' and u.state = 'deleted'
                    and c.records_erase_at <= due) then
    raise exception 'retention erasure: account % is not due', target using errcode = 'XC003';
  end if;
  update activities set ip = null, user_agent = null, data = null
   where user_id = target and (ip is not null or user_agent is not null or data is not null);
  get diagnostics erased = row_count;
  return erased;
end
$$;
