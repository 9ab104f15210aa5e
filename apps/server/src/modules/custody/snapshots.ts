import {
  formatUnits,
  type SolvencyProofEntity,
  type SolvencySnapshotEntity,
  toUnits,
} from '@exchange/shared';
import type pg from 'pg';
import { type Tx, withTransaction } from '../../db/pool.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import { liabilitiesByAccount } from './liabilities.ts';
import {
  buildLevels,
  encodeBalances,
  leafData,
  leafHash,
  siblingsOf,
  snapshotSalt,
  solvencySaltKey,
} from './merkle.ts';

/**
 * Merkle snapshots of customer liabilities (proof of liabilities): each one a published root with its time, the
 * leaves' data and every node of its tree kept (migration 0029; the app may only insert them), so a customer's
 * proof always refers to a root that was published and never changes.
 */

const SNAPSHOT_COLUMNS = 'id, root, leaf_count, totals, created_at';

// biome-ignore lint/suspicious/noExplicitAny: a raw database row
function snapshotEntity(r: Record<string, any>): SolvencySnapshotEntity {
  return {
    id: Number(r.id),
    root: r.root,
    leaf_count: Number(r.leaf_count),
    totals: r.totals,
    created_at: (r.created_at as Date).toISOString(),
  };
}

/**
 * Makes and stores a snapshot of what every account is owed now (liabilities.ts: the same amounts the solvency
 * report sums), read in one repeatable-read snapshot whose time is the snapshot's. `createdBy` is the staff
 * member who asked (null from the command line).
 */
export async function makeSnapshot(
  db: pg.Pool,
  keys: Pick<ServerKeys, 'encryptionKey'>,
  createdBy: string | null,
  /** Runs in the snapshot's transaction once it is stored (the staff trail line of who published it). */
  andThen?: (tx: Tx, snapshot: SolvencySnapshotEntity) => Promise<void>,
): Promise<SolvencySnapshotEntity> {
  const saltKey = solvencySaltKey(keys.encryptionKey);
  return withTransaction(db, async (tx) => {
    await tx.query('set transaction isolation level repeatable read');
    const head = (
      await tx.query(`select nextval(pg_get_serial_sequence('solvency_snapshots', 'id')) as id, now() as at`)
    ).rows[0];
    const id = Number(head.id);
    const accounts = await liabilitiesByAccount(tx);
    const precisions = new Map<string, number>(
      (await tx.query('select id, precision from currencies')).rows.map((r) => [r.id, Number(r.precision)]),
    );
    const leaves = accounts
      .map((a) => {
        const data = leafData(a.uid, snapshotSalt(saltKey, id, a.uid), a.balances);
        return { account: a, encoded: encodeBalances(a.balances), hash: leafHash(data) };
      })
      .sort((x, y) => (x.hash < y.hash ? -1 : x.hash > y.hash ? 1 : 0));
    const levels = buildLevels(leaves.map((l) => l.hash));
    const root = (levels[levels.length - 1] as string[])[0] as string;
    const totals = new Map<string, bigint>();
    for (const { account } of leaves)
      for (const [currency, amount] of Object.entries(account.balances)) {
        const p = precisions.get(currency) as number;
        totals.set(currency, (totals.get(currency) ?? 0n) + toUnits(amount, p));
      }
    const totalsJson = Object.fromEntries(
      [...totals]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([c, v]) => [c, formatUnits(v, precisions.get(c) as number)]),
    );
    const row = (
      await tx.query(
        `insert into solvency_snapshots (id, root, leaf_count, totals, created_by, created_at)
         values ($1, $2, $3, $4, $5, $6) returning ${SNAPSHOT_COLUMNS}`,
        [id, root, leaves.length, JSON.stringify(totalsJson), createdBy, head.at],
      )
    ).rows[0];
    if (leaves.length > 0)
      await tx.query(
        `insert into solvency_leaves (snapshot_id, user_id, position, balances)
         select $1, u, p, b from unnest($2::bigint[], $3::int[], $4::text[]) as t(u, p, b)`,
        [id, leaves.map((l) => l.account.userId), leaves.map((_, i) => i), leaves.map((l) => l.encoded)],
      );
    const nodes = levels.flatMap((level, l) => level.map((hash, position) => ({ l, position, hash })));
    await tx.query(
      `insert into solvency_nodes (snapshot_id, level, position, hash)
       select $1, l, p, decode(h, 'hex') from unnest($2::smallint[], $3::int[], $4::text[]) as t(l, p, h)`,
      [id, nodes.map((n) => n.l), nodes.map((n) => n.position), nodes.map((n) => n.hash)],
    );
    const snapshot = snapshotEntity(row);
    await andThen?.(tx, snapshot);
    return snapshot;
  });
}

/** The newest published snapshot, or null before the first. */
export async function latestSnapshot(db: pg.Pool): Promise<SolvencySnapshotEntity | null> {
  const row = (await db.query(`select ${SNAPSHOT_COLUMNS} from solvency_snapshots order by id desc limit 1`))
    .rows[0];
  return row ? snapshotEntity(row) : null;
}

/** Why {@link proofFor} has no proof: no such snapshot (or none yet), or the account has no leaf in it. */
export type ProofMissing = 'no_snapshot' | 'not_in_snapshot';

/**
 * The proof of one account (`userId`, as the session says: nobody gets another's) in snapshot `snapshotId`, or
 * the newest one: the leaf's data with its salt, and the sibling path to the root.
 */
export async function proofFor(
  db: pg.Pool,
  keys: Pick<ServerKeys, 'encryptionKey'>,
  userId: string,
  snapshotId?: number,
): Promise<SolvencyProofEntity | ProofMissing> {
  const snapshot = (
    snapshotId === undefined
      ? await db.query(`select ${SNAPSHOT_COLUMNS} from solvency_snapshots order by id desc limit 1`)
      : await db.query(`select ${SNAPSHOT_COLUMNS} from solvency_snapshots where id = $1`, [snapshotId])
  ).rows[0];
  if (!snapshot) return 'no_snapshot';
  const s = snapshotEntity(snapshot);
  const leaf = (
    await db.query(
      `select l.position, l.balances, u.uid, encode(n.hash, 'hex') as hash
       from solvency_leaves l join users u on u.id = l.user_id
       join solvency_nodes n on n.snapshot_id = l.snapshot_id and n.level = 0 and n.position = l.position
       where l.snapshot_id = $1 and l.user_id = $2`,
      [s.id, userId],
    )
  ).rows[0];
  if (!leaf) return 'not_in_snapshot';
  const siblings = siblingsOf(s.leaf_count, Number(leaf.position));
  const hashes = new Map<string, string>(
    (
      await db.query(
        `select n.level, n.position, encode(n.hash, 'hex') as hash from solvency_nodes n
         join unnest($2::smallint[], $3::int[]) as t(l, p) on n.level = t.l and n.position = t.p
         where n.snapshot_id = $1`,
        [s.id, siblings.map((x) => x.level), siblings.map((x) => x.position)],
      )
    ).rows.map((r) => [`${r.level}:${r.position}`, r.hash]),
  );
  const salt = snapshotSalt(solvencySaltKey(keys.encryptionKey), s.id, leaf.uid);
  const balances = decodeBalances(leaf.balances);
  return {
    snapshot_id: s.id,
    created_at: s.created_at,
    root: s.root,
    leaf_count: s.leaf_count,
    uid: leaf.uid,
    salt,
    balances,
    leaf_data: leafData(leaf.uid, salt, balances),
    leaf: leaf.hash,
    path: siblings.map((x) => {
      const hash = hashes.get(`${x.level}:${x.position}`);
      if (hash === undefined) throw new Error(`snapshot ${s.id} lacks node ${x.level}:${x.position}`);
      return { side: x.side, hash };
    }),
  };
}

/** Reverses the canonical balances text (`btc:1.5,usdt:20`) of a stored leaf. */
function decodeBalances(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === '') return out;
  for (const part of text.split(',')) {
    const [currency, amount] = part.split(':') as [string, string];
    out[currency] = amount;
  }
  return out;
}
