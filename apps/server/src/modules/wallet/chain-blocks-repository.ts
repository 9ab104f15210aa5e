import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on the blocks the watcher has read (`chain_blocks`). */
type Db = pg.Pool | Tx;

/** The hash of the block recorded at `height` on the network, or undefined. */
export async function storedBlockHash(db: Db, key: string, height: number): Promise<string | undefined> {
  return (
    await db.query<{ hash: string }>(
      'select hash from chain_blocks where blockchain_key = $1 and height = $2',
      [key, height],
    )
  ).rows[0]?.hash;
}

/** The newest block recorded on the network (its height bigint, as text), or undefined. */
export async function lastStoredBlock(
  db: Db,
  key: string,
): Promise<{ height: string; hash: string } | undefined> {
  return (
    await db.query<{ height: string; hash: string }>(
      'select height, hash from chain_blocks where blockchain_key = $1 order by height desc limit 1',
      [key],
    )
  ).rows[0];
}

/** The hash of the genesis block recorded on the network, or undefined. */
export async function storedGenesisHash(db: Db, key: string): Promise<string | undefined> {
  return (
    await db.query<{ hash: string }>(
      'select hash from chain_blocks where blockchain_key = $1 and height = 0',
      [key],
    )
  ).rows[0]?.hash;
}

/** Forgets every block recorded on the network. */
export async function forgetBlocks(db: Db, key: string): Promise<void> {
  await db.query('delete from chain_blocks where blockchain_key = $1', [key]);
}

/** Forgets the network's blocks above `height`. */
export async function forgetBlocksAbove(db: Db, key: string, height: number): Promise<void> {
  await db.query('delete from chain_blocks where blockchain_key = $1 and height > $2', [key, height]);
}

/** Records a block read on the network (replacing one recorded at its height). */
export async function recordBlock(
  db: Db,
  key: string,
  block: { height: number; hash: string; parentHash: string },
): Promise<void> {
  await db.query(
    `insert into chain_blocks (blockchain_key, height, hash, parent_hash) values ($1, $2, $3, $4)
         on conflict (blockchain_key, height) do update set hash = excluded.hash, parent_hash = excluded.parent_hash`,
    [key, block.height, block.hash, block.parentHash],
  );
}
