import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** A stored snapshot's head, as read. */
export interface SnapshotRow {
  id: string;
  root: string;
  leaf_count: number;
  totals: Record<string, string>;
  created_at: Date;
}

const SNAPSHOT_COLUMNS = 'id, root, leaf_count, totals, created_at';

/**
 * Turns `tx` into one repeatable-read snapshot of the database and takes the new snapshot's id and time (the
 * transaction's, so the time is the state's).
 */
export async function beginSnapshotRead(tx: Tx): Promise<{ id: number; at: Date }> {
  await tx.query('set transaction isolation level repeatable read');
  const head = (
    await tx.query<{ id: string; at: Date }>(
      `select nextval(pg_get_serial_sequence('solvency_snapshots', 'id')) as id, now() as at`,
    )
  ).rows[0];
  if (!head) throw new Error('no snapshot id');
  return { id: Number(head.id), at: head.at };
}

/** Every currency's precision. */
export async function currencyPrecisions(db: pg.Pool | Tx): Promise<Map<string, number>> {
  const rows = (await db.query<{ id: string; precision: number }>('select id, precision from currencies'))
    .rows;
  return new Map(rows.map((r) => [r.id, Number(r.precision)]));
}

/**
 * Stores a snapshot: its head, its leaves (user, position, canonical balances text) and every node of its tree
 * (level, position, hash in hex).
 */
export async function insertSnapshot(
  tx: Tx,
  s: {
    id: number;
    root: string;
    at: Date;
    totals: Record<string, string>;
    createdBy: string | null;
    leaves: { userId: number; balances: string }[];
    nodes: { level: number; position: number; hash: string }[];
  },
): Promise<SnapshotRow> {
  const row = (
    await tx.query<SnapshotRow>(
      `insert into solvency_snapshots (id, root, leaf_count, totals, created_by, created_at)
       values ($1, $2, $3, $4, $5, $6) returning ${SNAPSHOT_COLUMNS}`,
      [s.id, s.root, s.leaves.length, JSON.stringify(s.totals), s.createdBy, s.at],
    )
  ).rows[0];
  if (!row) throw new Error(`snapshot ${s.id} was not stored`);
  if (s.leaves.length > 0)
    await tx.query(
      `insert into solvency_leaves (snapshot_id, user_id, position, balances)
       select $1, u, p, b from unnest($2::bigint[], $3::int[], $4::text[]) as t(u, p, b)`,
      [s.id, s.leaves.map((l) => l.userId), s.leaves.map((_, i) => i), s.leaves.map((l) => l.balances)],
    );
  await tx.query(
    `insert into solvency_nodes (snapshot_id, level, position, hash)
     select $1, l, p, decode(h, 'hex') from unnest($2::smallint[], $3::int[], $4::text[]) as t(l, p, h)`,
    [s.id, s.nodes.map((n) => n.level), s.nodes.map((n) => n.position), s.nodes.map((n) => n.hash)],
  );
  return row;
}

/** The snapshot with this id, or the newest when `id` is undefined; undefined when there is none. */
export async function snapshotRow(db: pg.Pool, id?: number): Promise<SnapshotRow | undefined> {
  const result =
    id === undefined
      ? await db.query<SnapshotRow>(
          `select ${SNAPSHOT_COLUMNS} from solvency_snapshots order by id desc limit 1`,
        )
      : await db.query<SnapshotRow>(`select ${SNAPSHOT_COLUMNS} from solvency_snapshots where id = $1`, [id]);
  return result.rows[0];
}

/** One account's leaf in a snapshot: its position, balances text, uid and hash (hex); undefined when absent. */
export async function leafOf(
  db: pg.Pool,
  snapshotId: number,
  userId: string | number,
): Promise<{ position: number; balances: string; uid: string; hash: string } | undefined> {
  return (
    await db.query<{ position: number; balances: string; uid: string; hash: string }>(
      `select l.position, l.balances, u.uid, encode(n.hash, 'hex') as hash
       from solvency_leaves l join users u on u.id = l.user_id
       join solvency_nodes n on n.snapshot_id = l.snapshot_id and n.level = 0 and n.position = l.position
       where l.snapshot_id = $1 and l.user_id = $2`,
      [snapshotId, userId],
    )
  ).rows[0];
}

/** The hashes (hex) of the snapshot's nodes at these places, keyed `level:position`. */
export async function nodeHashes(
  db: pg.Pool,
  snapshotId: number,
  places: { level: number; position: number }[],
): Promise<Map<string, string>> {
  const rows = (
    await db.query<{ level: number; position: number; hash: string }>(
      `select n.level, n.position, encode(n.hash, 'hex') as hash from solvency_nodes n
       join unnest($2::smallint[], $3::int[]) as t(l, p) on n.level = t.l and n.position = t.p
       where n.snapshot_id = $1`,
      [snapshotId, places.map((x) => x.level), places.map((x) => x.position)],
    )
  ).rows;
  return new Map(rows.map((r) => [`${r.level}:${r.position}`, r.hash]));
}
