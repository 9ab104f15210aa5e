import { formatUnits } from '@exchange/shared';
import type pg from 'pg';
import type { WalletKey } from '../../adapters/chains/signing.ts';
import type { Core } from '../../core/index.ts';
import { depositKeys, hotWallet } from './addresses.ts';
import type { Network } from './chains.ts';
import {
  acceptedDeposits,
  gasTransferPending,
  insertGasTransfer,
  insertSweep,
  markCollected,
  markCollecting,
  markCollectingErrored,
  pendingCustodyTransfers,
  setDepositsState,
  settleCustodyTransfer,
} from './collector-repository.ts';

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
    const accepted = await acceptedDeposits(db, this.network.key, BATCH);
    if (accepted.length === 0) return;
    const native = this.network.chain.keyScheme.nativeCurrency;
    const byCurrency = new Map<string, { id: number; user: number; address: string }[]>();
    for (const d of accepted) {
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
      await markCollecting(db, ids);
      const result = await chain.sweep({ from: ready, to: hot.address, currency });
      const precision = this.network.currencies.get(currency) ?? 0;
      const swept = new Set<string>();
      for (const transfer of result.transfers) {
        const transferId = await insertSweep(db, {
          key: this.network.key,
          currency,
          from: transfer.from,
          to: hot.address,
          amount: formatUnits(transfer.amount, precision),
          txid: transfer.txid,
        });
        const moved = claimed.filter((d) => transfer.from.includes(d.address));
        for (const d of moved) swept.add(d.address);
        await markCollected(
          db,
          moved.map((d) => d.id),
          transferId,
        );
        for (const d of moved) this.deps.events.deposit(d.user, d.id);
      }
      // Nothing left to move at an address (swept with an earlier deposit, or only dust): nothing more to do.
      const empty = claimed.filter((d) => !swept.has(d.address));
      if (empty.length > 0) await this.settle(empty, 'collected', 'nothing left to sweep');
    } catch (err) {
      // The credit stands; only the sweep failed. An operator can look at it.
      this.deps.log.warn(`${this.network.key}: sweeping ${currency} failed: ${String(err)}`);
      await markCollectingErrored(
        db,
        deposits.map((d) => d.id),
        `collect: ${String(err).slice(0, 200)}`,
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
    if (!(await gasTransferPending(db, this.network.key, key.address))) {
      const amount = fee - balance;
      const { txid } = await chain.send({
        purpose: { kind: 'gas', depositIndex: key.index },
        from: hot,
        to: key.address,
        currency: native,
        amount,
      });
      await insertGasTransfer(db, {
        key: this.network.key,
        currency: native,
        from: hot.address,
        to: key.address,
        amount: formatUnits(amount, this.network.currencies.get(native) ?? 0),
        txid,
      });
    }
    return false;
  }

  /** Follows our own movements until the chain confirms them or they fail. */
  private async follow(): Promise<void> {
    const { db } = this.deps;
    for (const t of await pendingCustodyTransfers(db, this.network.key)) {
      const status = await this.network.chain.transaction(t.txid);
      const state =
        status.state === 'failed'
          ? 'failed'
          : status.state === 'confirmed' && status.confirmations >= 1
            ? 'confirmed'
            : null;
      if (state) await settleCustodyTransfer(db, t.id, state);
    }
  }

  private async settle(deposits: { id: number; user: number }[], state: string, note: string): Promise<void> {
    await setDepositsState(
      this.deps.db,
      deposits.map((d) => d.id),
      state,
      note,
    );
    for (const d of deposits) this.deps.events.deposit(d.user, d.id);
  }
}
