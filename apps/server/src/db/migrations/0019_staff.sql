-- The operator console: staff roles, step-up on the session, four-eyes adjustments and the staff trail.
alter table users add constraint users_role_check
  check (role in ('member', 'superadmin', 'compliance', 'support', 'accountant', 'technical'));

-- When the session's user last entered an authenticator code for staff actions (valid 5 minutes).
alter table sessions add column step_up_at timestamptz;

-- An adjustment proposed by staff waits for a second staff member (four eyes) before it is `pending` (applied
-- by the core, exactly once).
alter table adjustments drop constraint adjustments_state_check;
alter table adjustments add constraint adjustments_state_check
  check (state in ('proposed', 'pending', 'accepted', 'rejected'));
alter table adjustments add column proposed_by bigint references users(id);
alter table adjustments add column decided_by bigint references users(id);
alter table adjustments add column decided_at timestamptz;
alter table adjustments add constraint adjustments_four_eyes check (decided_by is null or decided_by <> proposed_by);

-- Every staff action: who, when, what, before and after, from where. Append-only: nothing may change or remove a
-- row, not even the application's own database user.
create table staff_actions (
  id         bigserial primary key,
  staff_id   bigint not null references users(id),
  role       text not null,
  action     text not null,
  target     text,
  before     jsonb,
  after      jsonb,
  ip         text,
  created_at timestamptz not null default now()
);
create index staff_actions_staff_idx on staff_actions (staff_id, id desc);
create index staff_actions_action_idx on staff_actions (action, id desc);

create function staff_actions_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the staff trail is append-only' using errcode = 'XC002';
end
$$;
create trigger staff_actions_no_update before update or delete on staff_actions
  for each row execute function staff_actions_append_only();
create trigger staff_actions_no_truncate before truncate on staff_actions
  for each statement execute function staff_actions_append_only();
