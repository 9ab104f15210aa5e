import type pg from 'pg';
import type { ChainState, Execution } from './executor.ts';
import { FREE_NET_WINDOW_MS } from './params.ts';
import type { RawData } from './transaction.ts';

/** A pool or a client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

export interface BlockRow {
  number: number;
  blockId: string;
  parentHash: string;
  timestamp: number;
  txTrieRoot: string;
  witnessAddress: string;
  witnessSignature: string;
}

export interface TxRow {
  txid: string;
  owner: string;
  rawData: RawData;
  rawDataHex: string;
  signature: string[];
  blockNumber: number | null;
  contractRet: string | null;
  info: Record<string, unknown> | null;
}

const BLOCK_COLUMNS =
  'number, block_id, parent_hash, timestamp_ms, tx_trie_root, witness_address, witness_signature';
const TX_COLUMNS = 'txid, owner, raw_data, raw_data_hex, signature, block_number, contract_ret, info';

function toBlock(row: Record<string, unknown>): BlockRow {
  return {
    number: Number(row.number),
    blockId: String(row.block_id),
    parentHash: String(row.parent_hash),
    timestamp: Number(row.timestamp_ms),
    txTrieRoot: String(row.tx_trie_root),
    witnessAddress: String(row.witness_address),
    witnessSignature: String(row.witness_signature),
  };
}

function toTx(row: Record<string, unknown>): TxRow {
  return {
    txid: String(row.txid),
    owner: String(row.owner),
    rawData: row.raw_data as RawData,
    rawDataHex: String(row.raw_data_hex),
    signature: row.signature as string[],
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    contractRet: (row.contract_ret as string | null) ?? null,
    info: (row.info as Record<string, unknown> | null) ?? null,
  };
}

/** The simulator's tables for one chain. */
export class TronStore {
  constructor(readonly chain: string) {}

  async head(q: Queryable): Promise<BlockRow | null> {
    const { rows } = await q.query(
      `select ${BLOCK_COLUMNS} from tronsim_blocks where chain = $1 order by number desc limit 1`,
      [this.chain],
    );
    return rows[0] ? toBlock(rows[0]) : null;
  }

  async block(q: Queryable, number: number): Promise<BlockRow | null> {
    const { rows } = await q.query(
      `select ${BLOCK_COLUMNS} from tronsim_blocks where chain = $1 and number = $2`,
      [this.chain, number],
    );
    return rows[0] ? toBlock(rows[0]) : null;
  }

  async blockById(q: Queryable, blockId: string): Promise<BlockRow | null> {
    const { rows } = await q.query(
      `select ${BLOCK_COLUMNS} from tronsim_blocks where chain = $1 and block_id = $2`,
      [this.chain, blockId],
    );
    return rows[0] ? toBlock(rows[0]) : null;
  }

  async insertBlock(q: Queryable, block: BlockRow): Promise<void> {
    await q.query(
      `insert into tronsim_blocks (chain, ${BLOCK_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        this.chain,
        block.number,
        block.blockId,
        block.parentHash,
        block.timestamp,
        block.txTrieRoot,
        block.witnessAddress,
        block.witnessSignature,
      ],
    );
  }

  async transaction(q: Queryable, txid: string): Promise<TxRow | null> {
    const { rows } = await q.query(
      `select ${TX_COLUMNS} from tronsim_transactions where chain = $1 and txid = $2`,
      [this.chain, txid],
    );
    return rows[0] ? toTx(rows[0]) : null;
  }

  async blockTransactions(q: Queryable, number: number): Promise<TxRow[]> {
    const { rows } = await q.query(
      `select ${TX_COLUMNS} from tronsim_transactions where chain = $1 and block_number = $2 order by position`,
      [this.chain, number],
    );
    return rows.map(toTx);
  }

  async pending(q: Queryable): Promise<TxRow[]> {
    const { rows } = await q.query(
      `select ${TX_COLUMNS} from tronsim_transactions where chain = $1 and block_number is null order by seq`,
      [this.chain],
    );
    return rows.map(toTx);
  }

  async insertPending(q: Queryable, tx: Omit<TxRow, 'blockNumber' | 'contractRet' | 'info'>): Promise<void> {
    await q.query(
      `insert into tronsim_transactions (chain, txid, owner, raw_data, raw_data_hex, signature)
       values ($1, $2, $3, $4, $5, $6)`,
      [this.chain, tx.txid, tx.owner, JSON.stringify(tx.rawData), tx.rawDataHex, tx.signature],
    );
  }

  async dropTransaction(q: Queryable, txid: string): Promise<void> {
    await q.query('delete from tronsim_transactions where chain = $1 and txid = $2', [this.chain, txid]);
  }

  /** Records a transaction as mined at `position` of block `number`, with its balance changes. */
  async mined(
    q: Queryable,
    txid: string,
    number: number,
    position: number,
    outcome: Execution,
    info: Record<string, unknown>,
  ): Promise<void> {
    await q.query(
      `update tronsim_transactions set block_number = $3, position = $4, contract_ret = $5, info = $6,
              free_net_used = $7 where chain = $1 and txid = $2`,
      [this.chain, txid, number, position, outcome.contractRet, JSON.stringify(info), outcome.freeNetUsed],
    );
    for (const change of outcome.changes) {
      await this.credit(q, txid, number, change.address, change.currency, change.delta);
    }
  }

  async credit(
    q: Queryable,
    txid: string | null,
    number: number,
    address: string,
    currency: 'trx' | 'usdt',
    delta: bigint,
  ): Promise<void> {
    await q.query(
      `insert into tronsim_ledger (chain, txid, block_number, address, currency, delta)
       values ($1, $2, $3, $4, $5, $6)`,
      [this.chain, txid, number, address, currency, delta.toString()],
    );
  }

  /**
   * Removes blocks from `from` up: their balance changes go, their transactions return to the pending pool
   * (`keep`) or are dropped.
   */
  async unwind(q: Queryable, from: number, keep: boolean): Promise<void> {
    await q.query('delete from tronsim_ledger where chain = $1 and block_number >= $2', [this.chain, from]);
    if (keep) {
      await q.query(
        `update tronsim_transactions set block_number = null, position = null, contract_ret = null, info = null,
                free_net_used = 0 where chain = $1 and block_number >= $2`,
        [this.chain, from],
      );
    } else {
      await q.query('delete from tronsim_transactions where chain = $1 and block_number >= $2', [
        this.chain,
        from,
      ]);
    }
    await q.query('delete from tronsim_blocks where chain = $1 and number >= $2', [this.chain, from]);
  }

  /** Account state as of the newest block, free bandwidth counted over the day before `at` (ms). */
  state(q: Queryable, at: number): ChainState {
    const sum = async (address: string, currency: string) => {
      const { rows } = await q.query(
        `select coalesce(sum(delta), 0)::text as balance from tronsim_ledger
          where chain = $1 and address = $2 and currency = $3`,
        [this.chain, address, currency],
      );
      return BigInt(rows[0]?.balance ?? '0');
    };
    return {
      trx: (address) => sum(address, 'trx'),
      usdt: (address) => sum(address, 'usdt'),
      exists: async (address) => {
        const { rowCount } = await q.query(
          `select 1 from tronsim_ledger where chain = $1 and address = $2 and currency = 'trx' limit 1`,
          [this.chain, address],
        );
        return (rowCount ?? 0) > 0;
      },
      freeNetUsed: async (address) => {
        const { rows } = await q.query(
          `select coalesce(sum(t.free_net_used), 0)::text as used from tronsim_transactions t
             join tronsim_blocks b on b.chain = t.chain and b.number = t.block_number
            where t.chain = $1 and t.owner = $2 and b.timestamp_ms > $3`,
          [this.chain, address, at - FREE_NET_WINDOW_MS],
        );
        return Number(rows[0]?.used ?? 0);
      },
    };
  }

  /** The earliest time the account existed (its first TRX credit's block), for `create_time`. */
  async createTime(q: Queryable, address: string): Promise<number | null> {
    const { rows } = await q.query(
      `select min(b.timestamp_ms)::text as t from tronsim_ledger l
         join tronsim_blocks b on b.chain = l.chain and b.number = l.block_number
        where l.chain = $1 and l.address = $2 and l.currency = 'trx'`,
      [this.chain, address],
    );
    return rows[0]?.t ? Number(rows[0].t) : null;
  }

  /** The transaction info of every mined transaction of block `number`, in block order. */
  async blockInfos(q: Queryable, number: number): Promise<Record<string, unknown>[]> {
    return (await this.blockTransactions(q, number)).map((tx) => tx.info ?? {});
  }
}
