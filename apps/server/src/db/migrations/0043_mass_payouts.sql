-- Mass payouts of a verified business (issue 31, part 3): a CSV file validated as a whole, then executed after one
-- authenticator code, each row as a withdrawal of its own (the existing machinery: hold through the core, review,
-- broadcast or internal settlement). Only files that passed validation are stored; a refused one is answered
-- with its errors and forgotten.
create table payout_files (
  id          bigserial primary key,
  user_id     bigint not null references users(id),
  -- SHA-256 of the file's bytes as uploaded.
  sha256      bytea not null check (length(sha256) = 32),
  file_name   text not null,
  row_count   int not null check (row_count between 1 and 1000),
  state       text not null default 'validated' check (state in ('validated', 'executing', 'executed')),
  created_at  timestamptz not null default now(),
  executed_at timestamptz,
  -- While executing: when its runner last placed a row. A runner silent for a minute is taken for stopped, and
  -- the next look at the file by its owner resumes it (see Payouts.get).
  run_at      timestamptz
);
-- Nothing is paid twice: the same bytes are accepted once per account while their file exists (waiting, running
-- or done). Discarding a file that was never executed deletes it, and frees its hash.
create unique index payout_files_once on payout_files (user_id, sha256);
create index payout_files_user_idx on payout_files (user_id, id desc);

create table payout_rows (
  file_id        bigint not null references payout_files(id) on delete cascade,
  -- The row's line in the file (the header is line 1).
  line           int not null,
  currency_id    text not null references currencies(id),
  blockchain_key text not null references blockchains(key),
  -- The address (canonical form) or the email (lower case) as the file named it.
  recipient      text not null,
  -- The account it goes to when it stays on the platform (an email, or one of our deposit addresses).
  internal_user_id bigint references users(id),
  -- What the recipient receives; the fee comes on top (the withdrawal's amount is their sum).
  amount         numeric(36, 18) not null check (amount > 0),
  fee            numeric(36, 18) not null check (fee >= 0),
  reference      text not null default '',
  state          text not null default 'pending'
    check (state in ('pending', 'placing', 'placed', 'refused', 'interrupted')),
  error          text,
  withdrawal_id  bigint unique references withdrawals(id),
  primary key (file_id, line)
);
