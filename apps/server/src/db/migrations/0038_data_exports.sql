-- "Your data" (issue 31, part 5): every copy of their data a user took, so that one a day is allowed (a full export
-- reads the whole history) and support can see who took one when. `bytes` and `finished_at` are set when the
-- download was sent in full; `failed_at` when the server could not finish it (such an export does not count).
create table data_exports (
  id          bigserial primary key,
  user_id     bigint not null references users(id) on delete cascade,
  created_at  timestamptz not null default now(),
  finished_at timestamptz,
  failed_at   timestamptz,
  bytes       bigint
);
-- The daily check reads the user's newest exports.
create index data_exports_user_idx on data_exports (user_id, created_at desc);
