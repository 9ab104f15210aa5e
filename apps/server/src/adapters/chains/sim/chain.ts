import { createHash, randomBytes } from 'node:crypto';
import {
  type BtcNetwork,
  encodeP2wpkhAddress,
  encodeTronAddress,
  formatUnits,
  toUnits,
  validateAddress,
} from '@exchange/shared';
import type pg from 'pg';
import { type Tx, withTransaction } from '../../../db/pool.ts';
import type { ChainBlock, ChainPort, SendRequest, TransactionStatus } from '../port.ts';

/** The address formats a simulated network imitates. */
export type SimFlavour = 'tron' | 'btc';

export interface SimChainOptions {
  key: string;
  flavour: SimFlavour;
  /** The currencies this network carries and their precision. */
  currencies: Record<string, number>;
}

/** A simulated chain also lets developers and tests fund addresses, mine and reorganise. */
export interface SimChain extends ChainPort {
  /** Sends `amount` from nowhere (a coinbase) to `to`; it is mined with the next block. */
  faucet(to: string, currency: string, amount: bigint): Promise<{ txid: string }>;
  /** Mines `blocks` blocks; the first takes the whole mempool. Returns the new height. */
  mine(blocks?: number): Promise<number>;
  /**
   * Replaces the newest `depth` blocks by as many new ones. Their transactions are dropped (as if
   * double-spent) unless `keepTransactions`, in which case they return to the mempool.
   */
  reorg(depth: number, keepTransactions?: boolean): Promise<number>;
}

/** The simulated Bitcoin chain imitates regtest: `bcrt1…` segwit addresses, `m`/`n`/`2` legacy ones. */
const SIM_BTC_NETWORK: BtcNetwork = 'regtest';
/** Length of the random account id (TRON) or public-key hash (Bitcoin P2WPKH) of a new address. */
const ADDRESS_HASH_BYTES = 20;

const hex = (bytes = 32) => randomBytes(bytes).toString('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A blockchain kept in PostgreSQL, for networks without a local node (TRON, Bitcoin): addresses with keys,
 * a mempool, blocks with parent hashes, confirmations and reorgs. Balances follow from the transactions, and a
 * send is refused when the sender cannot cover it. Writes take a per-chain advisory lock, so the app and the
 * operator command line can both use it.
 */
export function createSimChain(db: pg.Pool, options: SimChainOptions): SimChain {
  const { key, flavour } = options;
  const precisionOf = (currency: string): number => {
    const p = options.currencies[currency];
    if (p === undefined) throw new Error(`${key} does not carry ${currency}`);
    return p;
  };

  const locked = <T>(work: (tx: Tx) => Promise<T>) =>
    withTransaction(db, async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`sim-chain:${key}`]);
      await ensureGenesis(tx);
      return work(tx);
    });

  async function ensureGenesis(tx: Tx): Promise<void> {
    await tx.query(
      `insert into sim_blocks (chain, height, hash, parent_hash) values ($1, 0, $2, $3) on conflict do nothing`,
      [key, sha256(`${key}:genesis`), '0'.repeat(64)],
    );
  }

  async function tip(q: Tx | pg.Pool): Promise<{ height: number; hash: string }> {
    const row = (
      await q.query('select height, hash from sim_blocks where chain = $1 order by height desc limit 1', [
        key,
      ])
    ).rows[0];
    return row
      ? { height: Number(row.height), hash: row.hash }
      : { height: 0, hash: sha256(`${key}:genesis`) };
  }

  async function mineOn(tx: Tx, blocks: number): Promise<number> {
    let { height, hash } = await tip(tx);
    for (let i = 0; i < blocks; i++) {
      const next = { height: height + 1, hash: hex() };
      await tx.query('insert into sim_blocks (chain, height, hash, parent_hash) values ($1, $2, $3, $4)', [
        key,
        next.height,
        next.hash,
        hash,
      ]);
      if (i === 0) {
        await tx.query(
          'update sim_transactions set block_height = $2 where chain = $1 and block_height is null',
          [key, next.height],
        );
      }
      ({ height, hash } = next);
    }
    return height;
  }

  /** Confirmed receipts minus every spend, mempool included, so a pending spend cannot be spent twice. */
  async function spendable(q: Tx | pg.Pool, address: string, currency: string): Promise<bigint> {
    const row = (
      await q.query(
        `select coalesce(sum(amount) filter (where to_address = $2 and block_height is not null), 0)
              - coalesce(sum(amount) filter (where from_address = $2), 0) as balance
         from sim_transactions where chain = $1 and currency_id = $3 and (to_address = $2 or from_address = $2)`,
        [key, address, currency],
      )
    ).rows[0];
    return toUnits(String(row.balance), precisionOf(currency));
  }

  async function insertTransfer(
    tx: Tx,
    from: string | null,
    to: string,
    currency: string,
    amount: bigint,
    memo: string | null,
  ): Promise<string> {
    const txid = hex();
    await tx.query(
      `insert into sim_transactions (chain, txid, idx, from_address, to_address, currency_id, amount, memo)
       values ($1, $2, 0, $3, $4, $5, $6, $7)`,
      [key, txid, from, to, currency, formatUnits(amount, precisionOf(currency)), memo],
    );
    return txid;
  }

  const normalizeAddress = (address: string): string | null =>
    validateAddress(flavour, address.trim(), { btcNetworks: [SIM_BTC_NETWORK] });

  /**
   * A valid address, or one this chain issued itself before addresses were checksummed (a database from
   * before that change): its deposit and hot-wallet addresses must keep receiving (sweeps, the demo seed's
   * top-up of the hot wallet). Null for anything else.
   */
  async function recipient(tx: Tx, address: string): Promise<string | null> {
    const valid = normalizeAddress(address);
    if (valid) return valid;
    const own = await tx.query('select 1 from sim_addresses where chain = $1 and address = $2', [
      key,
      address,
    ]);
    return own.rowCount ? address : null;
  }

  return {
    key,

    async latestBlock() {
      return (await tip(db)).height;
    },

    async block(height: number): Promise<ChainBlock | null> {
      const block = (
        await db.query('select hash, parent_hash from sim_blocks where chain = $1 and height = $2', [
          key,
          height,
        ])
      ).rows[0];
      if (!block) {
        if (height !== 0) return null;
        return { height: 0, hash: sha256(`${key}:genesis`), parentHash: '0'.repeat(64), transfers: [] };
      }
      const rows = await db.query(
        `select txid, idx, from_address, to_address, currency_id, amount::text from sim_transactions
         where chain = $1 and block_height = $2 order by id`,
        [key, height],
      );
      return {
        height,
        hash: block.hash,
        parentHash: block.parent_hash,
        transfers: rows.rows
          .filter((r) => r.currency_id in options.currencies)
          .map((r) => ({
            txid: r.txid,
            index: r.idx,
            currency: r.currency_id,
            from: r.from_address,
            to: r.to_address,
            amount: toUnits(r.amount, precisionOf(r.currency_id)),
          })),
      };
    },

    async createAddress() {
      const hash = randomBytes(ADDRESS_HASH_BYTES);
      const address =
        flavour === 'tron' ? encodeTronAddress(hash) : encodeP2wpkhAddress(SIM_BTC_NETWORK, hash);
      const secret = hex();
      await db.query('insert into sim_addresses (chain, address, secret_hash) values ($1, $2, $3)', [
        key,
        address,
        sha256(secret),
      ]);
      return { address, secret };
    },

    normalizeAddress,

    async balance(address: string, currency: string) {
      return spendable(db, address, currency);
    },

    async send(request: SendRequest) {
      return locked(async (tx) => {
        const from = (
          await tx.query('select address from sim_addresses where chain = $1 and secret_hash = $2', [
            key,
            sha256(request.fromSecret),
          ])
        ).rows[0]?.address as string | undefined;
        if (!from) throw new Error(`${key}: unknown signing key`);
        const to = await recipient(tx, request.to);
        if (!to) throw new Error(`${key}: invalid address ${request.to}`);
        if (request.amount <= 0n) throw new Error(`${key}: amount must be positive`);
        if ((await spendable(tx, from, request.currency)) < request.amount)
          throw new Error(`${key}: insufficient funds in ${from}`);
        return {
          txid: await insertTransfer(tx, from, to, request.currency, request.amount, request.memo ?? null),
        };
      });
    },

    async transaction(txid: string): Promise<TransactionStatus> {
      const row = (
        await db.query('select block_height from sim_transactions where chain = $1 and txid = $2 limit 1', [
          key,
          txid,
        ])
      ).rows[0];
      if (!row) return { state: 'unknown', height: null, confirmations: 0 };
      if (row.block_height === null) return { state: 'pending', height: null, confirmations: 0 };
      const height = Number(row.block_height);
      return { state: 'confirmed', height, confirmations: (await tip(db)).height - height + 1 };
    },

    async faucet(to: string, currency: string, amount: bigint) {
      if (amount <= 0n) throw new Error(`${key}: amount must be positive`);
      precisionOf(currency);
      return locked(async (tx) => {
        const address = await recipient(tx, to);
        if (!address) throw new Error(`${key}: invalid address ${to}`);
        return { txid: await insertTransfer(tx, null, address, currency, amount, null) };
      });
    },

    async mine(blocks = 1) {
      return locked((tx) => mineOn(tx, blocks));
    },

    async reorg(depth: number, keepTransactions = false) {
      return locked(async (tx) => {
        const { height } = await tip(tx);
        const from = Math.max(1, height - depth + 1);
        if (keepTransactions) {
          await tx.query(
            'update sim_transactions set block_height = null where chain = $1 and block_height >= $2',
            [key, from],
          );
        } else {
          await tx.query('delete from sim_transactions where chain = $1 and block_height >= $2', [key, from]);
        }
        await tx.query('delete from sim_blocks where chain = $1 and height >= $2', [key, from]);
        return mineOn(tx, height - from + 1);
      });
    },
  };
}
