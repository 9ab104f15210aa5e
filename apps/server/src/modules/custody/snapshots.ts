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
import {
  beginSnapshotRead,
  currencyPrecisions,
  insertSnapshot,
  leafOf,
  nodeHashes,
  type SnapshotRow,
  snapshotRow,
} from './snapshots-repository.ts';

/**
 * Merkle snapshots of customer liabilities (proof of liabilities): each one a published root with its time, the
 * leaves' data and every node of its tree kept (migration 0029; the app may only insert them), so a customer's
 * proof always refers to a root that was published and never changes.
 */

function snapshotEntity(r: SnapshotRow): SolvencySnapshotEntity {
  return {
    id: Number(r.id),
    root: r.root,
    leaf_count: Number(r.leaf_count),
    totals: r.totals,
    created_at: r.created_at.toISOString(),
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
    const head = await beginSnapshotRead(tx);
    const id = head.id;
    const accounts = await liabilitiesByAccount(tx);
    const precisions = await currencyPrecisions(tx);
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
    const row = await insertSnapshot(tx, {
      id,
      root,
      at: head.at,
      totals: totalsJson,
      createdBy,
      leaves: leaves.map((l) => ({ userId: l.account.userId, balances: l.encoded })),
      nodes: levels.flatMap((level, l) => level.map((hash, position) => ({ level: l, position, hash }))),
    });
    const snapshot = snapshotEntity(row);
    await andThen?.(tx, snapshot);
    return snapshot;
  });
}

/** The newest published snapshot, or null before the first. */
export async function latestSnapshot(db: pg.Pool): Promise<SolvencySnapshotEntity | null> {
  const row = await snapshotRow(db);
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
  const snapshot = await snapshotRow(db, snapshotId);
  if (!snapshot) return 'no_snapshot';
  const s = snapshotEntity(snapshot);
  const leaf = await leafOf(db, s.id, userId);
  if (!leaf) return 'not_in_snapshot';
  const siblings = siblingsOf(s.leaf_count, Number(leaf.position));
  const hashes = await nodeHashes(db, s.id, siblings);
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
