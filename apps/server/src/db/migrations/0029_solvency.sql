-- Proof of solvency (issue 26): published Merkle roots of customer liabilities, and what each customer's proof
-- is rebuilt from. A published root never changes: the app's role may only insert (db/privileges.ts).

-- One snapshot: its root, how many leaves, and the liabilities per currency its leaves sum to ({"btc": "1.5"}).
create table solvency_snapshots (
  id         bigserial primary key,
  root       text not null check (root ~ '^[0-9a-f]{64}$'),
  leaf_count integer not null check (leaf_count >= 0),
  totals     jsonb not null,
  created_by bigint references users(id),
  created_at timestamptz not null default now()
);

-- One account's leaf: its place among the leaves and the canonical text of what it was owed (modules/custody/
-- merkle.ts). The salt is not stored: it is derived again from the server key when the customer asks.
create table solvency_leaves (
  snapshot_id bigint not null references solvency_snapshots(id),
  user_id     bigint not null references users(id),
  position    integer not null check (position >= 0),
  balances    text not null,
  created_at  timestamptz not null default now(),
  primary key (snapshot_id, user_id),
  unique (snapshot_id, position)
);

-- Every node of the tree (level 0 = the leaves' hashes, the last level = the root), so a proof is a handful of
-- lookups by key rather than rebuilding the tree.
create table solvency_nodes (
  snapshot_id bigint not null references solvency_snapshots(id),
  level       smallint not null check (level >= 0),
  position    integer not null check (position >= 0),
  hash        bytea not null check (octet_length(hash) = 32),
  created_at  timestamptz not null default now(),
  primary key (snapshot_id, level, position)
);
