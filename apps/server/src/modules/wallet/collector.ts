import { formatUnits } from '@exchange/shared';
import type pg from 'pg';
import type { WalletKey } from '../../adapters/chains/signing.ts';
import type { Core } from '../../core/index.ts';
import { depositKeys, hotWallet } from './addresses.ts';
import type { Network } from './chains.ts';

export interface CollectorDeps {
  db: pg.Pool;
  core: Core;
  events: { deposit(userId: number, depositId: number): void };
  log: { warn(message: string): void };
}

/** Credited deposits swept per pass at most. */
const BATCH = 200;

/**
 * Moves credited deposits from the deposit addresses to the hot wallet, in batches: one transaction for all
 * addresses on Bitcoin, one per address on account chains. A token needs the native coin for its fee at the
 * deposit address: the hot wallet sends that first (a `gas` transfer), and the sweep follows once it arrived.
 * Every movement is a `custody_transfers` row, followed until it confirms or fails; a swept deposit names it.
 */
export class Collector {
  constructor(
    private readonly deps: CollectorDeps,
    private readonly network: Network,
  ) {}

  async tick(): Promise<void> {
    await this.follow();
    const { db } = this.deps;
    const accepted = await db.query(
      `select id, user_id, currency_id, address from deposits
       where blockchain_key = $1 and state = 'accepted' order by id limit ${BATCH}`,
      [this.network.key],
    );
    if (accepted.rowCount === 0) return;
    const native = this.network.chain.keyScheme.nativeCurrency;
    const byCurrency = new Map<string, { id: number; user: number; address: string }[]>();
    for (const d of accepted.rows) {
      const list = byCurrency.get(d.currency_id) ?? [];
      list.push({ id: Number(d.id), user: Number(d.user_id), address: d.address });
      byCurrency.set(d.currency_id, list);
    }
    // Tokens first: an address waiting for its token sweep keeps the native coin it was sent for gas.
    const waitingForToken = new Set<string>();
    for (const [currency, deposits] of byCurrency) {
      if (currency === native) continue;
      for (const address of await this.collect(currency, deposits)) waitingForToken.add(address);
    }
    const nativeDeposits = byCurrency.get(native);
    if (nativeDeposits)
      await this.collect(
        native,
        nativeDeposits.filter((d) => !waitingForToken.has(d.address)),
      );
  }

  /** Sweeps one currency's deposits; returns the addresses still waiting (for gas). */
  private async collect(
    currency: string,
    deposits: { id: number; user: number; address: string }[],
  ): Promise<string[]> {
    const { db } = this.deps;
    const { chain } = this.network;
    const addresses = [...new Set(deposits.map((d) => d.address))];
    const keys = await depositKeys(db, this.network, addresses);
    const keyed = new Set(keys.map((k) => k.address));
    // An address of an earlier version has a key of its own, retired from the app: `cli custody sweep-legacy`.
    const legacy = deposits.filter((d) => !keyed.has(d.address));
    if (legacy.length > 0)
      await this.settle(legacy, 'skipped', 'legacy address: swept by cli custody sweep-legacy');
    const hot = await hotWallet(db, this.network);
    const waiting: string[] = [];
    let ready: WalletKey[] = keys;
    try {
      const fee = await chain.sweepFee(currency);
      if (fee > 0n) {
        ready = [];
        for (const key of keys) {
          if (await this.hasGas(key, fee, hot)) ready.push(key);
          else waiting.push(key.address);
        }
      }
      if (ready.length === 0) return waiting;
      const readyAddresses = new Set(ready.map((k) => k.address));
      const claimed = deposits.filter((d) => readyAddresses.has(d.address));
      const ids = claimed.map((d) => d.id);
      await db.query(`update deposits set state = 'collecting', updated_at = now() where id = any($1)`, [
        ids,
      ]);
      const result = await chain.sweep({ from: ready, to: hot.address, currency });
      const precision = this.network.currencies.get(currency) ?? 0;
      const swept = new Set<string>();
      for (const transfer of result.transfers) {
        const row = (
          await db.query(
            `insert into custody_transfers (blockchain_key, kind, currency_id, from_addresses, to_address, amount, txid)
             values ($1, 'sweep', $2, $3, $4, $5, $6) returning id`,
            [
              this.network.key,
              currency,
              transfer.from,
              hot.address,
              formatUnits(transfer.amount, precision),
              transfer.txid,
            ],
          )
        ).rows[0];
        const moved = claimed.filter((d) => transfer.from.includes(d.address));
        for (const d of moved) swept.add(d.address);
        await db.query(
          `update deposits set state = 'collected', custody_transfer_id = $2, updated_at = now() where id = any($1)`,
          [moved.map((d) => d.id), row.id],
        );
        for (const d of moved) this.deps.events.deposit(d.user, d.id);
      }
      // Nothing left to move at an address (swept with an earlier deposit, or only dust): nothing more to do.
      const empty = claimed.filter((d) => !swept.has(d.address));
      if (empty.length > 0) await this.settle(empty, 'collected', 'nothing left to sweep');
    } catch (err) {
      // The credit stands; only the sweep failed. An operator can look at it.
      this.deps.log.warn(`${this.network.key}: sweeping ${currency} failed: ${String(err)}`);
      await db.query(
        `update deposits set state = 'errored', note = $2, updated_at = now()
         where id = any($1) and state = 'collecting'`,
        [deposits.map((d) => d.id), `collect: ${String(err).slice(0, 200)}`],
      );
    }
    return waiting;
  }

  /**
   * Whether the address holds the native coin a token sweep burns; if not, and no top-up is on its way, the hot
   * wallet sends it (signed for purpose `gas`, to this very deposit key).
   */
  private async hasGas(key: WalletKey, fee: bigint, hot: WalletKey): Promise<boolean> {
    const { db } = this.deps;
    const { chain } = this.network;
    const native = chain.keyScheme.nativeCurrency;
    const balance = await chain.balance(key.address, native);
    if (balance >= fee) return true;
    const pending = await db.query(
      `select 1 from custody_transfers where blockchain_key = $1 and kind = 'gas' and state = 'pending' and to_address = $2`,
      [this.network.key, key.address],
    );
    if (pending.rowCount === 0) {
      const amount = fee - balance;
      const { txid } = await chain.send({
        purpose: { kind: 'gas', depositIndex: key.index },
        from: hot,
        to: key.address,
        currency: native,
        amount,
      });
      await db.query(
        `insert into custody_transfers (blockchain_key, kind, currency_id, from_addresses, to_address, amount, txid)
         values ($1, 'gas', $2, $3, $4, $5, $6)`,
        [
          this.network.key,
          native,
          [hot.address],
          key.address,
          formatUnits(amount, this.network.currencies.get(native) ?? 0),
          txid,
        ],
      );
    }
    return false;
  }

  /** Follows our own movements until the chain confirms them or they fail. */
  private async follow(): Promise<void> {
    const { db } = this.deps;
    const open = await db.query(
      `select id, txid from custody_transfers where blockchain_key = $1 and state = 'pending' order by id limit 200`,
      [this.network.key],
    );
    for (const t of open.rows) {
      const status = await this.network.chain.transaction(t.txid);
      const state =
        status.state === 'failed'
          ? 'failed'
          : status.state === 'confirmed' && status.confirmations >= 1
            ? 'confirmed'
            : null;
      if (state)
        await db.query(`update custody_transfers set state = $2, updated_at = now() where id = $1`, [
          t.id,
          state,
        ]);
    }
  }

  private async settle(deposits: { id: number; user: number }[], state: string, note: string): Promise<void> {
    await this.deps.db.query(
      `update deposits set state = $2, note = $3, updated_at = now() where id = any($1)`,
      [deposits.map((d) => d.id), state, note],
    );
    for (const d of deposits) this.deps.events.deposit(d.user, d.id);
  }
}
