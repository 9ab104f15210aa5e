import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { ChainBlock } from '../../adapters/chains/port.ts';
import { type Clock, dateOf } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { withTransaction } from '../../db/pool.ts';
import { type IncomingDeps, mayCreditIncoming } from '../compliance/travel-rule/incoming.ts';
import { hotWallet, newDepositAddress } from './addresses.ts';
import { depositAddressOwners, newestDepositAddress } from './addresses-repository.ts';
import { raiseReorgAfterCredit } from './chain-alerts-repository.ts';
import {
  forgetBlocks,
  forgetBlocksAbove,
  lastStoredBlock,
  recordBlock,
  storedBlockHash,
  storedGenesisHash,
} from './chain-blocks-repository.ts';
import type { Network } from './chains.ts';
import { Collector } from './collector.ts';
import { creditDeposit } from './deposit-credit.ts';
import {
  cancelDepositsAbove,
  creditedDepositsAbove,
  depositsInBlocksAbove,
  depositsReady,
  recordSeenDeposit,
  rejectBelowMinimum,
} from './deposits-repository.ts';

/** What the watcher tells the rest of the app: a new address to show, a deposit that changed. */
export interface WatcherEvents {
  depositAddress(userId: number, network: string, address: string): void;
  deposit(userId: number, depositId: number): void;
  /** The chain's newest height, told before the deposits of a pass, so their confirmations count from it. */
  height?(network: string, latest: number): void;
}

export interface WatcherDeps {
  db: pg.Pool;
  core: Core;
  /** The app's clock (clock.ts): a deposit's credit is stamped on it. */
  clock: Clock;
  events: WatcherEvents;
  log: { warn(message: string): void };
  /**
   * The travel rule on incoming transfers: asked before a deposit is credited (none: every deposit is credited at
   * its confirmations, as before).
   */
  incoming?: Omit<IncomingDeps, 'db' | 'log'>;
}

/** Blocks scanned per tick at most, so one tick stays short. */
const SCAN_LIMIT = 200;
/** Reorgs handled in one tick at most. */
const MAX_UNWINDS_PER_TICK = 3;

/**
 * Follows one network: records deposits to our addresses block by block, notices reorgs by parent hashes,
 * credits a deposit through the core once it has enough confirmations, and sweeps it to the hot wallet.
 * A deposit is one (network, txid, index) row, and the credit carries the client command id `deposit:<id>`, so
 * neither a re-scan nor a crash between the credit and the state change can credit twice.
 */
export class DepositWatcher {
  private readonly collector: Collector;

  constructor(
    private readonly deps: WatcherDeps,
    private readonly network: Network,
  ) {
    this.collector = new Collector(deps, network);
  }

  /** The genesis is compared once per process: a node reset while we run shows as a reorg at the tip. */
  private genesisChecked = false;

  /** The height at which the pending deposits were last told; their confirmations move with it. */
  private counted: number | undefined;

  /** The newest height the last pass worked through. */
  private passed: number | undefined;

  /**
   * One pass: scan new blocks, then confirm, credit and collect. Returns the chain's height. `quiet`: when the
   * chain has not moved since the last pass, nothing on it can have changed, so the database is left alone (a
   * reorg to a chain of the same length shows with the next block).
   */
  async tick(quiet = false): Promise<number> {
    const latest = await this.network.chain.latestBlock();
    if (quiet && latest === this.passed) return latest;
    // The hot wallet is on record before any block is read: its outputs are ours too (Bitcoin keeps them).
    await hotWallet(this.deps.db, this.network);
    this.deps.events.height?.(this.network.key, latest);
    const recorded = new Set<number>();
    await this.scan(latest, recorded);
    await this.confirm(latest);
    if (latest !== this.counted) {
      await this.counting(latest, recorded);
      this.counted = latest;
    }
    await this.collector.tick();
    this.passed = latest;
    return latest;
  }

  /** Tells each deposit still short of the threshold its new confirmation count (not those just recorded). */
  private async counting(latest: number, recorded: Set<number>): Promise<void> {
    const pending = await depositsInBlocksAbove(
      this.deps.db,
      this.network.key,
      latest - this.network.confirmations + 1,
    );
    for (const d of pending)
      if (!recorded.has(Number(d.id))) this.deps.events.deposit(Number(d.user_id), Number(d.id));
  }

  private async scan(latest: number, recorded: Set<number>): Promise<void> {
    const { db } = this.deps;
    const key = this.network.key;
    let next = await this.resumeHeight();
    // A reorg to a chain of the same length changes the tip without adding a block.
    const tip = next > 0 ? await this.network.chain.block(next - 1) : null;
    const stored = await storedBlockHash(db, key, next - 1);
    if (stored !== undefined && tip?.hash !== stored) next = await this.unwind(next - 1);
    const stop = Math.min(latest, next + SCAN_LIMIT - 1);
    let unwinds = 0;
    while (next <= stop) {
      const block = await this.network.chain.block(next);
      if (!block) return;
      const parent = await storedBlockHash(db, key, next - 1);
      if (parent !== undefined && parent !== block.parentHash) {
        // A chain that keeps disagreeing with itself must not spin this loop; the next tick tries again.
        if (++unwinds > MAX_UNWINDS_PER_TICK) return;
        next = await this.unwind(next - 1);
        continue;
      }
      for (const id of await this.record(block)) recorded.add(id);
      next++;
    }
  }

  /** Where to continue: after the last recorded block, or from the start after a chain reset (a new devnet). */
  private async resumeHeight(): Promise<number> {
    const { db } = this.deps;
    const key = this.network.key;
    const last = await lastStoredBlock(db, key);
    if (!last) return 0;
    if (this.genesisChecked) return Number(last.height) + 1;
    this.genesisChecked = true;
    const genesis = await storedGenesisHash(db, key);
    const chainGenesis = await this.network.chain.block(0);
    if (genesis !== undefined && chainGenesis && genesis !== chainGenesis.hash) {
      this.deps.log.warn(`${key}: the chain was reset (new genesis); scanning it from the start`);
      await forgetBlocks(db, key);
      return 0;
    }
    return Number(last.height) + 1;
  }

  /**
   * Walks back from `height` to the last block that is still on the chain and forgets the rest. Deposits
   * not yet credited in the dropped blocks are cancelled; a credited one raises an alert and keeps its credit.
   * @returns the first height to scan again.
   */
  private async unwind(height: number): Promise<number> {
    const { db } = this.deps;
    const key = this.network.key;
    let fork = height;
    while (fork >= 0) {
      const stored = await storedBlockHash(db, key, fork);
      const onChain = await this.network.chain.block(fork);
      if (stored === undefined || (onChain && onChain.hash === stored)) break;
      fork--;
    }
    this.deps.log.warn(`${key}: reorg, blocks after ${fork} replaced`);
    const touched = await withTransaction(db, async (tx) => {
      for (const d of await creditedDepositsAbove(tx, key, fork)) {
        await raiseReorgAfterCredit(tx, key, {
          deposit_id: Number(d.id),
          user_id: Number(d.user_id),
          txid: d.txid,
          amount: d.amount,
        });
      }
      const cancelled = await cancelDepositsAbove(tx, key, fork);
      await forgetBlocksAbove(tx, key, fork);
      return cancelled;
    });
    for (const d of touched) this.deps.events.deposit(Number(d.user_id), Number(d.id));
    return fork + 1;
  }

  /** Records a block and the deposits in it to our addresses, in one transaction; returns their ids. */
  private async record(block: ChainBlock): Promise<number[]> {
    const { db } = this.deps;
    const key = this.network.key;
    // Our own movements (a gas top-up from the hot wallet to a deposit address) are not deposits.
    const hot = (await hotWallet(db, this.network)).address;
    const transfers = block.transfers.filter((t) => t.from !== hot);
    const targets = [...new Set(transfers.map((t) => t.to))];
    const owners = new Map<string, number>();
    if (targets.length > 0) {
      for (const r of await depositAddressOwners(db, key, targets)) owners.set(r.address, Number(r.user_id));
    }
    const changed = await withTransaction(db, async (tx) => {
      const out: { id: number; user: number; address: string }[] = [];
      for (const t of transfers) {
        const user = owners.get(t.to);
        if (user === undefined) continue;
        const precision = this.network.currencies.get(t.currency);
        if (precision === undefined) continue;
        const id = await recordSeenDeposit(tx, {
          userId: user,
          currency: t.currency,
          key,
          address: t.to,
          txid: t.txid,
          txout: t.index,
          amount: formatUnits(t.amount, precision),
          blockHeight: block.height,
          blockHash: block.hash,
          from: t.from,
          seenAt: dateOf(this.deps.clock),
        });
        out.push({ id: Number(id), user, address: t.to });
      }
      await recordBlock(tx, key, block);
      return out;
    });
    for (const d of changed) {
      this.deps.events.deposit(d.user, d.id);
      await this.rotateAddress(d.user, d.address);
    }
    return changed.map((d) => d.id);
  }

  /** After a deposit to the user's newest address, give them a new one (old ones keep working). */
  private async rotateAddress(userId: number, address: string): Promise<void> {
    const { db } = this.deps;
    const newest = await newestDepositAddress(db, userId, this.network.key);
    if (newest !== address) return;
    const fresh = await newDepositAddress(db, this.network, userId, false);
    this.deps.events.depositAddress(userId, this.network.key, fresh);
  }

  /**
   * Credits deposits that reached the confirmation threshold; those under the network minimum are rejected, and
   * those the travel rule holds (from another provider without the originator's information) wait.
   */
  private async confirm(latest: number): Promise<void> {
    const { db, core } = this.deps;
    const ready = await depositsReady(db, this.network.key, latest - this.network.confirmations + 1);
    const incoming = this.deps.incoming;
    for (const d of ready) {
      const precision = core.units.precision(d.currency_id);
      const amount = toUnits(d.amount, precision);
      if (amount < toUnits(d.min, precision)) {
        await rejectBelowMinimum(db, d.id);
      } else {
        if (incoming && !(await mayCreditIncoming({ ...incoming, db, log: this.deps.log }, d))) continue;
        await creditDeposit(this.deps, { ...d, amount });
      }
      this.deps.events.deposit(Number(d.user_id), Number(d.id));
    }
  }
}
