import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import type pg from 'pg';
import { SIM_CHAIN_LOCK, SIM_LOCK_FAMILIES } from '../locks.ts';
import { blockHeader, COIN, compactSize, type DecodedTx, decodeTx, encodeTx, merkleRoot } from './codec.ts';

/**
 * The simulator's chain in PostgreSQL (tables `btcsim_*`, migration 0027). Writes run in one transaction under an
 * advisory lock per chain, so several processes can share a chain. Blocks are kept when a reorg or
 * `invalidateblock` takes them out of the active chain; a transaction's state is its active block (`block_hash`)
 * or `in_mempool`.
 */

/** A database connection: the pool for reads, a client inside the lock for writes. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface BlockRow {
  hash: string;
  height: number;
  prevHash: string;
  header: Uint8Array;
  time: number;
  active: boolean;
}

/** A spendable (or spent) output as validation sees it. */
export interface Coin {
  txid: string;
  n: number;
  value: bigint;
  script: Uint8Array;
  coinbase: boolean;
  /** Height of its block, null while its transaction is in the mempool. */
  height: number | null;
  /** The live transaction spending it, if any, and whether that one is only in the mempool. */
  spentBy: string | null;
  spentInMempool: boolean;
}

/** Regtest halves the subsidy every 150 blocks (Core's `nSubsidyHalvingInterval` for regtest). */
const HALVING_INTERVAL = 150;
const NULL_TXID = '0'.repeat(64);
/** OP_TRUE: where a timer block's coinbase goes when nobody asked for the reward (nobody here needs it). */
const ANYONE_SCRIPT = Uint8Array.of(0x51);

export class BitcoinStore {
  constructor(
    readonly pool: pg.Pool,
    readonly chain: string,
  ) {}

  /** Runs `work` in a transaction holding the chain's advisory lock, with the genesis block in place. */
  async locked<T>(work: (q: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(SIM_CHAIN_LOCK, [SIM_LOCK_FAMILIES.bitcoin, this.chain]);
      if (!(await this.tip(client))) await this.mineBlock(client, ANYONE_SCRIPT, NULL_TXID, 0);
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async tip(q: Queryable): Promise<BlockRow | null> {
    const { rows } = await q.query(
      'select * from btcsim_blocks where chain = $1 and active order by height desc limit 1',
      [this.chain],
    );
    return rows[0] ? toBlock(rows[0]) : null;
  }

  /** The tip, creating the genesis block on first use. */
  async requireTip(): Promise<BlockRow> {
    const tip = await this.tip(this.pool);
    if (tip) return tip;
    return this.locked(async (q) => (await this.tip(q)) as BlockRow);
  }

  async blockAt(q: Queryable, height: number): Promise<BlockRow | null> {
    const { rows } = await q.query(
      'select * from btcsim_blocks where chain = $1 and height = $2 and active',
      [this.chain, height],
    );
    return rows[0] ? toBlock(rows[0]) : null;
  }

  async blockByHash(q: Queryable, hash: string): Promise<BlockRow | null> {
    const { rows } = await q.query('select * from btcsim_blocks where chain = $1 and hash = $2', [
      this.chain,
      hash,
    ]);
    return rows[0] ? toBlock(rows[0]) : null;
  }

  /** The transactions of a block in order, decoded. */
  async blockTransactions(q: Queryable, hash: string): Promise<(DecodedTx & { fee: bigint | null })[]> {
    const { rows } = await q.query(
      `select t.raw, t.fee from btcsim_block_transactions bt
         join btcsim_transactions t on t.chain = bt.chain and t.txid = bt.txid
        where bt.chain = $1 and bt.block_hash = $2 order by bt.position`,
      [this.chain, hash],
    );
    return rows.map((r) => ({ ...decodeTx(r.raw), fee: r.fee === null ? null : BigInt(r.fee) }));
  }

  /** A known transaction with its state. */
  async transaction(q: Queryable, txid: string) {
    const { rows } = await q.query(
      `select t.raw, t.kind, t.fee, t.vsize, t.in_mempool, t.mempool_time, t.block_hash, b.height
         from btcsim_transactions t left join btcsim_blocks b on b.chain = t.chain and b.hash = t.block_hash
        where t.chain = $1 and t.txid = $2`,
      [this.chain, txid],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      tx: decodeTx(r.raw),
      kind: r.kind as string,
      fee: r.fee === null ? null : BigInt(r.fee),
      inMempool: r.in_mempool as boolean,
      mempoolTime: r.mempool_time === null ? null : Number(r.mempool_time),
      blockHash: r.block_hash as string | null,
      height: r.height === null ? null : Number(r.height),
    };
  }

  /** The outputs named, if their transaction is live (confirmed or in the mempool), with who spends them. */
  async coins(q: Queryable, outpoints: { txid: string; vout: number }[]): Promise<Map<string, Coin>> {
    const { rows } = await q.query(
      `select o.txid, o.n, o.value, o.script, t.kind, b.height, s.txid as spent_by, s.in_mempool as spent_in_mempool
         from unnest($2::text[], $3::int[]) as p(txid, n)
         join btcsim_outputs o on o.chain = $1 and o.txid = p.txid and o.n = p.n
         join btcsim_transactions t on t.chain = o.chain and t.txid = o.txid
         left join btcsim_blocks b on b.chain = t.chain and b.hash = t.block_hash
         left join lateral (
           select st.txid, st.in_mempool from btcsim_inputs i
             join btcsim_transactions st on st.chain = i.chain and st.txid = i.txid
            where i.chain = o.chain and i.prev_txid = o.txid and i.prev_n = o.n
              and (st.in_mempool or st.block_hash is not null)
            limit 1) s on true
        where t.in_mempool or t.block_hash is not null`,
      [this.chain, outpoints.map((p) => p.txid), outpoints.map((p) => p.vout)],
    );
    const coins = new Map<string, Coin>();
    for (const r of rows) {
      coins.set(`${r.txid}:${r.n}`, {
        txid: r.txid,
        n: r.n,
        value: BigInt(r.value),
        script: r.script,
        coinbase: r.kind === 'coinbase',
        height: r.height === null ? null : Number(r.height),
        spentBy: r.spent_by ?? null,
        spentInMempool: r.spent_in_mempool === true,
      });
    }
    return coins;
  }

  /** Records a transaction (or revives one seen before) in the mempool. */
  async addToMempool(q: Queryable, tx: DecodedTx, kind: 'standard' | 'faucet', fee: bigint | null) {
    await this.insertTransaction(q, tx, kind, fee);
    await q.query(
      `update btcsim_transactions set in_mempool = true, block_hash = null, mempool_time = $3, seq = default
        where chain = $1 and txid = $2`,
      [this.chain, tx.txid, Math.floor(Date.now() / 1000)],
    );
  }

  private async insertTransaction(q: Queryable, tx: DecodedTx, kind: string, fee: bigint | null) {
    const inserted = await q.query(
      `insert into btcsim_transactions (chain, txid, wtxid, raw, kind, fee, vsize) values ($1, $2, $3, $4, $5, $6, $7)
       on conflict do nothing`,
      [this.chain, tx.txid, tx.wtxid, tx.raw, kind, fee?.toString() ?? null, tx.vsize],
    );
    if (inserted.rowCount === 0) return;
    for (const [n, output] of tx.outputs.entries()) {
      await q.query(
        'insert into btcsim_outputs (chain, txid, n, value, script) values ($1, $2, $3, $4, $5)',
        [this.chain, tx.txid, n, output.value.toString(), output.script],
      );
    }
    if (kind !== 'standard') return;
    for (const [vin, input] of tx.inputs.entries()) {
      await q.query(
        'insert into btcsim_inputs (chain, txid, vin, prev_txid, prev_n) values ($1, $2, $3, $4, $5)',
        [this.chain, tx.txid, vin, input.txid, input.vout],
      );
    }
  }

  /** An output of `value` to `script` spending nothing that exists: the simulator's faucet. */
  async faucet(q: Queryable, script: Uint8Array, value: bigint): Promise<string> {
    const raw = encodeTx({
      version: 2,
      lockTime: 0,
      inputs: [
        { txid: hex.encode(randomBytes(32)), vout: 0, scriptSig: new Uint8Array(), sequence: 0xffffffff },
      ],
      outputs: [{ value, script }],
    });
    const tx = decodeTx(raw);
    await this.addToMempool(q, tx, 'faucet', null);
    return tx.txid;
  }

  /**
   * Mines one block on the tip holding the whole mempool (in arrival order, so parents precede children), its
   * coinbase paying subsidy + fees to `coinbaseScript`. Returns its hash.
   */
  async mineBlock(
    q: Queryable,
    coinbaseScript: Uint8Array,
    prevHash?: string,
    height?: number,
  ): Promise<string> {
    const tip = prevHash === undefined ? await this.tip(q) : null;
    const parent = tip ? { hash: tip.hash, height: tip.height, time: tip.time } : null;
    const newHeight = height ?? (parent ? parent.height + 1 : 0);
    const { rows } = await q.query(
      'select txid, fee from btcsim_transactions where chain = $1 and in_mempool order by seq',
      [this.chain],
    );
    const fees = rows.reduce((sum, r) => sum + (r.fee === null ? 0n : BigInt(r.fee)), 0n);
    const subsidy =
      newHeight >= HALVING_INTERVAL * 64
        ? 0n
        : (50n * COIN) >> BigInt(Math.floor(newHeight / HALVING_INTERVAL));
    const coinbase = decodeTx(
      encodeTx({
        version: 2,
        lockTime: 0,
        // BIP34: the height first; then random bytes, so a block replacing another at its height differs.
        inputs: [
          {
            txid: NULL_TXID,
            vout: 0xffffffff,
            scriptSig: coinbaseScriptSig(newHeight),
            sequence: 0xffffffff,
          },
        ],
        outputs: [{ value: subsidy + fees, script: coinbaseScript }],
      }),
    );
    await this.insertTransaction(q, coinbase, 'coinbase', null);
    const txids = [coinbase.txid, ...rows.map((r) => r.txid as string)];
    const time = Math.max(Math.floor(Date.now() / 1000), (parent?.time ?? 0) + 1);
    const { header, hash } = blockHeader({
      prevHash: parent?.hash ?? prevHash ?? NULL_TXID,
      merkleRoot: merkleRoot(txids),
      time,
      nonce: randomBytes(4).readUInt32LE(0),
    });
    await q.query(
      `insert into btcsim_blocks (chain, hash, height, prev_hash, header, time, active) values ($1, $2, $3, $4, $5, $6, true)`,
      [this.chain, hash, newHeight, parent?.hash ?? prevHash ?? NULL_TXID, header, time],
    );
    await q.query(
      `insert into btcsim_block_transactions (chain, block_hash, position, txid)
       select $1, $2, p - 1, t from unnest($3::text[]) with ordinality as u(t, p)`,
      [this.chain, hash, txids],
    );
    await q.query(
      'update btcsim_transactions set block_hash = $2, in_mempool = false where chain = $1 and txid = any($3)',
      [this.chain, hash, txids],
    );
    return hash;
  }

  /**
   * Takes the active blocks from `height` up out of the active chain. Their transactions go back to the mempool
   * when `keep` (as Core does on a disconnect), otherwise they are dropped; coinbases are dropped either way. The
   * mempool then loses whatever no longer has its inputs.
   */
  async disconnectFrom(q: Queryable, height: number, keep: boolean): Promise<void> {
    const { rows } = await q.query(
      'update btcsim_blocks set active = false where chain = $1 and active and height >= $2 returning hash',
      [this.chain, height],
    );
    const hashes = rows.map((r) => r.hash as string);
    await q.query(
      `update btcsim_transactions set block_hash = null, in_mempool = (kind <> 'coinbase' and $3)
        where chain = $1 and block_hash = any($2)`,
      [this.chain, hashes, keep],
    );
    await this.purgeMempool(q);
  }

  /** Drops mempool transactions spending an output that is gone or spent by a confirmed transaction. */
  async purgeMempool(q: Queryable): Promise<void> {
    for (;;) {
      const { rowCount } = await q.query(
        `update btcsim_transactions t set in_mempool = false
          where t.chain = $1 and t.in_mempool and exists (
            select 1 from btcsim_inputs i
             where i.chain = t.chain and i.txid = t.txid and (
               not exists (select 1 from btcsim_outputs o join btcsim_transactions p on p.chain = o.chain and p.txid = o.txid
                            where o.chain = i.chain and o.txid = i.prev_txid and o.n = i.prev_n
                              and (p.in_mempool or p.block_hash is not null))
               or exists (select 1 from btcsim_inputs i2 join btcsim_transactions s on s.chain = i2.chain and s.txid = i2.txid
                           where i2.chain = i.chain and i2.prev_txid = i.prev_txid and i2.prev_n = i.prev_n
                             and i2.txid <> i.txid and s.block_hash is not null)))`,
        [this.chain],
      );
      if (!rowCount) return;
    }
  }

  async mempool(q: Queryable): Promise<string[]> {
    const { rows } = await q.query(
      'select txid from btcsim_transactions where chain = $1 and in_mempool order by seq',
      [this.chain],
    );
    return rows.map((r) => r.txid as string);
  }
}

/** BIP34 height push followed by 8 random bytes. */
function coinbaseScriptSig(height: number): Uint8Array {
  const heightBytes: number[] = [];
  for (let h = height; h > 0; h = Math.floor(h / 256)) heightBytes.push(h % 256);
  if ((heightBytes.at(-1) ?? 0) & 0x80) heightBytes.push(0);
  const push = height === 0 ? [0x00] : [heightBytes.length, ...heightBytes];
  const extra = randomBytes(8);
  return Uint8Array.from([...push, extra.length, ...extra]);
}

function toBlock(r: Record<string, unknown>): BlockRow {
  return {
    hash: r.hash as string,
    height: Number(r.height),
    prevHash: r.prev_hash as string,
    header: r.header as Uint8Array,
    time: Number(r.time),
    active: r.active as boolean,
  };
}

/** A block serialised (verbosity 0): header, transaction count, transactions. */
export function serializeBlock(header: Uint8Array, txs: DecodedTx[]): Uint8Array {
  const parts = [header, compactSize(txs.length), ...txs.map((t) => t.raw)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
