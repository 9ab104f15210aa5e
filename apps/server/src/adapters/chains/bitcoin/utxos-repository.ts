import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';

/**
 * Our outputs (table `btc_utxos`) and the transactions we broadcast (`btc_transactions`). The node has no wallet:
 * this is the wallet's memory of what it can spend, always checked with `gettxout` before use.
 */

export interface Utxo {
  txid: string;
  vout: number;
  address: string;
  amount: bigint;
  /** The output script, hex. */
  script: string;
}

type Queryable = pg.Pool | Tx;

export class UtxoStore {
  constructor(
    readonly db: pg.Pool,
    private readonly chain: string,
  ) {}

  /** Unspent outputs of `addresses`, largest first. */
  async unspent(q: Queryable, addresses: string[]): Promise<Utxo[]> {
    const { rows } = await q.query<{
      txid: string;
      vout: number;
      address: string;
      amount: string;
      script: string;
    }>(
      `select txid, vout, address, amount::text as amount, script from btc_utxos
        where chain = $1 and address = any($2) and status = 'unspent' order by amount desc, txid, vout`,
      [this.chain, addresses],
    );
    return rows.map((r) => ({
      txid: r.txid,
      vout: r.vout,
      address: r.address,
      amount: BigInt(r.amount),
      script: r.script,
    }));
  }

  /**
   * Records outputs paying us. Seen in a block (`blockHash`), an output marked gone (reorganised away, then
   * back) is usable again; one we spent stays spent.
   */
  async record(q: Queryable, utxos: Utxo[], blockHash: string | null): Promise<void> {
    for (const u of utxos) {
      await q.query(
        `insert into btc_utxos (chain, txid, vout, address, amount, script, block_hash) values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (chain, txid, vout) do update
           set block_hash = coalesce(excluded.block_hash, btc_utxos.block_hash),
               status = case when btc_utxos.status = 'gone' and excluded.block_hash is not null then 'unspent' else btc_utxos.status end`,
        [this.chain, u.txid, u.vout, u.address, u.amount.toString(), u.script, blockHash],
      );
    }
  }

  async markSpent(q: Queryable, inputs: { txid: string; vout: number }[], spentBy: string): Promise<void> {
    await q.query(
      `update btc_utxos set status = 'spent', spent_by = $4
        where (chain, txid, vout) in (select $1::text, t, v from unnest($2::text[], $3::int[]) as u(t, v))`,
      [this.chain, inputs.map((i) => i.txid), inputs.map((i) => i.vout), spentBy],
    );
  }

  /** The node no longer has the output (spent elsewhere, reorganised away). */
  async markGone(q: Queryable, utxo: { txid: string; vout: number }): Promise<void> {
    await q.query(
      `update btc_utxos set status = 'gone' where chain = $1 and txid = $2 and vout = $3 and status = 'unspent'`,
      [this.chain, utxo.txid, utxo.vout],
    );
  }

  /** Outputs of ours that a block's transaction spends without us knowing: gone. */
  async spentInBlock(q: Queryable, spends: { txid: string; vout: number; by: string }[]): Promise<void> {
    if (spends.length === 0) return;
    await q.query(
      `update btc_utxos b set status = 'gone'
         from unnest($2::text[], $3::int[], $4::text[]) as s(t, v, by)
        where b.chain = $1 and b.txid = s.t and b.vout = s.v and b.status <> 'gone' and b.spent_by is distinct from s.by`,
      [this.chain, spends.map((s) => s.txid), spends.map((s) => s.vout), spends.map((s) => s.by)],
    );
  }

  async rememberBroadcast(q: Queryable, txid: string, outputs: number): Promise<void> {
    await q.query(
      `insert into btc_transactions (chain, txid, outputs) values ($1, $2, $3) on conflict do nothing`,
      [this.chain, txid, outputs],
    );
  }

  /** Of `txids`, those we broadcast: their block is remembered for `transaction()`. */
  async rememberBlock(q: Queryable, txids: string[], blockHash: string): Promise<void> {
    await q.query(`update btc_transactions set block_hash = $3 where chain = $1 and txid = any($2)`, [
      this.chain,
      txids,
      blockHash,
    ]);
  }

  async broadcast(txid: string): Promise<{ outputs: number; blockHash: string | null } | null> {
    const { rows } = await this.db.query<{ outputs: number; block_hash: string | null }>(
      'select outputs, block_hash from btc_transactions where chain = $1 and txid = $2',
      [this.chain, txid],
    );
    const row = rows[0];
    return row ? { outputs: row.outputs, blockHash: row.block_hash } : null;
  }
}
