import type pg from 'pg';
import type { BankPort } from '../../adapters/bank/port.ts';
import type { EvmDevnet } from '../../adapters/chains/evm/devnet.ts';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { TravelRulePort } from '../../adapters/travel-rule/port.ts';
import type { Clock } from '../../clock.ts';
import type { WithdrawReviewRules } from '../../config.ts';
import type { Core } from '../../core/index.ts';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { Repeating } from '../../jobs/repeating.ts';
import { DEFAULT_TRAVEL_RULE, type TravelRuleConfig } from '../compliance/travel-rule/config.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import type { StreamPublisher } from '../ranger/forwarded.ts';
import { DEPOSIT_STREAM_NAMES, privateStreamKey } from '../ranger/streams.ts';
import { KeysNotPublishedError } from './addresses.ts';
import { applyPendingAdjustments } from './adjustments.ts';
import { ChainRegistry, type Network } from './chains.ts';
import { historyItem, type Kind } from './history.ts';
import { type NetworkSettings, networkFactory } from './networks.ts';
import { WithdrawalProcessor } from './processor.ts';
import { HotWalletTiers } from './tiers.ts';
import { DepositWatcher } from './watcher.ts';
import type { WithdrawDeps } from './withdrawals.ts';

/** A quiet pass still reads every table this often (holds that expire, retries after a failure). */
export const FULL_PASS_MS = 30_000;

export interface WalletOptions {
  db: pg.Pool;
  core: Core;
  keys: ServerKeys;
  mail: MailPort;
  hub: StreamPublisher;
  log: { warn(message: string): void };
  /** How often the watchers, the withdrawal processor and pending adjustments run; 0: only when `tick()` is called. */
  pollMs: number;
  /** False: a process without the worker role, or one that starts them once it holds the jobs lock. */
  jobs?: boolean;
  /** Hours withdrawals wait after a password or 2FA change. */
  withdrawHoldHours: number;
  /** The app's clock (clock.ts): withdrawal holds and the password check's lockout are measured on it. */
  clock: Clock;
  /** When a withdrawal waits for staff review besides its limits. */
  withdrawReview: WithdrawReviewRules;
  /** The travel rule's settings (the defaults when not given). */
  travelRule?: TravelRuleConfig;
  /**
   * Reaches the beneficiary's provider with the travel-rule message, and asks about deposits from other providers
   * (none: deposits are credited without the check).
   */
  travelRulePort?: TravelRulePort;
  /** Pays fiat withdrawals (the bank simulator's payouts by default: compose-providers.ts). */
  bank: BankPort;
  /** Where each network's node is (or its simulator), and the signer. */
  networks: NetworkSettings;
  /** Announces new or moved withdrawals and adjustments (`w:`), so an idle pass can leave their tables alone. */
  feed?: ChangeFeed;
}

/**
 * The wallet back office: one deposit watcher per network, the withdrawal processor and the adjustment
 * applier, run in one loop (never overlapping), plus block production on the simulated chains.
 */
export class Wallet {
  /** Per network; a network whose node answered only after the start gets its own at the next pass. */
  private readonly watchers = new Map<
    string,
    { network: Network; watcher: DepositWatcher; tiers: HotWalletTiers }
  >();
  /** Networks whose watcher waits for the signer's keys (told once). */
  private readonly waitingForKeys = new Set<string>();
  private readonly watcherDeps: ConstructorParameters<typeof DepositWatcher>[0];
  private readonly processor: WithdrawalProcessor;
  private readonly latest = new Map<string, number>();
  /** When each network's deposit watcher last finished a pass (ms since the epoch). */
  private readonly watchedAt = new Map<string, number>();
  private readonly repeating: Repeating;
  private running: Promise<void> | undefined;
  /** Set when withdrawals or adjustments changed (or changes may have gone unheard) since the last full pass. */
  private workPending = true;
  /** When the last full pass (every table read) started. */
  private fullPassAt = 0;
  private stopChains: (() => Promise<void>) | undefined;
  /** The bank that pays fiat withdrawals. */
  readonly bank: BankPort;
  /** The in-process Hardhat devnet behind eth-devnet, when this app runs one. */
  evmDevnet: EvmDevnet | undefined;

  private constructor(
    private readonly options: WalletOptions,
    readonly chains: ChainRegistry,
  ) {
    this.repeating = new Repeating(
      options.pollMs,
      () => this.tick(true),
      (err) => options.log.warn(`wallet: ${String(err)}`),
    );
    options.feed?.subscribe((payload) => {
      if (payload.startsWith('w:')) this.workPending = true;
    });
    options.feed?.onReset(() => {
      this.workPending = true;
    });
    const events = {
      depositAddress: (userId: number, network: string, address: string) => {
        const currencies = [...(chains.get(network)?.currencies.keys() ?? [])];
        for (const currency of currencies) {
          options.hub.publish(
            privateStreamKey(userId, 'deposit_address'),
            { currency, blockchain_key: network, address },
            'deposit_address',
          );
        }
      },
      deposit: (userId: number, id: number) => void this.publishItem(userId, 'deposits', id),
      height: (network: string, latest: number) => void this.latest.set(network, latest),
    };
    this.bank = options.bank;
    this.watcherDeps = {
      db: options.db,
      core: options.core,
      clock: options.clock,
      events,
      log: options.log,
      // The travel rule on deposits asks the same port that carries our messages to other providers.
      incoming: options.travelRulePort && {
        port: options.travelRulePort,
        config: options.travelRule ?? DEFAULT_TRAVEL_RULE,
        clock: options.clock,
      },
    };
    this.processor = new WithdrawalProcessor({ ...this.withdrawDeps(), log: options.log });
  }

  /** Loads the networks and starts the loops. */
  static async start(options: WalletOptions): Promise<Wallet> {
    const factory = networkFactory(options.db, options.networks);
    const chains = await ChainRegistry.load(options.db, factory.factory);
    factory.register(chains.all());
    const wallet = new Wallet(options, chains);
    wallet.stopChains = factory.stop;
    wallet.evmDevnet = factory.devnet();
    if (options.jobs !== false) await wallet.startJobs();
    return wallet;
  }

  /**
   * Takes over the background work: withdrawals a stopped process left half done, then the watchers' and the
   * processor's loop. Exactly one process runs it (the worker role).
   */
  async startJobs(): Promise<void> {
    const { options } = this;
    await this.processor.recoverInterrupted();
    if (options.pollMs > 0) this.repeating.start();
  }

  /** What withdrawals need; also used by the routes. */
  withdrawDeps(): WithdrawDeps {
    const { db, keys, core, mail } = this.options;
    return {
      db,
      keys,
      core,
      mail,
      holdHours: this.options.withdrawHoldHours,
      clock: this.options.clock,
      review: this.options.withdrawReview,
      travelRule: this.options.travelRule,
      travelRulePort: this.options.travelRulePort,
      chains: this.chains,
      onChange: (userId, id) => void this.publishItem(userId, 'withdrawals', id),
      onDeposit: (userId, id) => void this.publishItem(userId, 'deposits', id),
    };
  }

  /** Confirmations a network requires. */
  confirmations = (network: string): number => this.chains.get(network)?.confirmations ?? 0;
  /** The newest block height seen on a network. */
  latestHeight = (network: string): number | undefined => this.latest.get(network);
  /** Seconds since the network's watcher last finished a pass (a stalled node shows here); undefined before one. */
  watcherLagSeconds = (network: string): number | undefined => {
    const at = this.watchedAt.get(network);
    return at === undefined ? undefined : (Date.now() - at) / 1000;
  };

  /**
   * One pass of everything; waits for a pass already running instead of overlapping it. A `quiet` pass (the
   * repeating one) asks each node for its newest block and reads the database only for what can have changed:
   * a network whose chain moved, withdrawals and adjustments when the change feed announced some (or a chain
   * moved), and all of it every {@link FULL_PASS_MS} in any case. An idle exchange thus leaves its database alone.
   */
  async tick(quiet = false): Promise<void> {
    if (this.running) return this.running;
    this.running = this.pass(quiet).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(quiet: boolean): Promise<void> {
    const full = !quiet || !this.options.feed?.live || Date.now() - this.fullPassAt >= FULL_PASS_MS;
    if (full) this.fullPassAt = Date.now();
    let moved = false;
    const { log } = this.options;
    // Networks are independent: a slow node must not hold up the others.
    for (const network of this.chains.all()) {
      if (!this.watchers.has(network.key)) {
        this.watchers.set(network.key, {
          network,
          watcher: new DepositWatcher(this.watcherDeps, network),
          tiers: new HotWalletTiers(this.options.db, network, log),
        });
      }
    }
    await Promise.all(
      [...this.watchers.values()].map(async ({ network, watcher, tiers }) => {
        try {
          const before = this.latest.get(network.key);
          const latest = await watcher.tick(!full);
          // The node answered: the watcher is current even when there was nothing new to read.
          this.watchedAt.set(network.key, Date.now());
          if (latest === before && !full) return;
          moved = true;
          this.latest.set(network.key, latest);
        } catch (err) {
          // Until the signer has published its keys there is nothing to watch: said once, not every pass.
          const waiting = err instanceof KeysNotPublishedError;
          if (!waiting || !this.waitingForKeys.has(network.key))
            log.warn(`${network.key}: deposit watcher: ${String(err)}`);
          if (waiting) this.waitingForKeys.add(network.key);
          else this.waitingForKeys.delete(network.key);
        }
        await tiers.tick().catch((err) => log.warn(`${network.key}: hot wallet bounds: ${String(err)}`));
      }),
    );
    if (!full && !moved && !this.workPending) return;
    this.workPending = false;
    try {
      await this.processor.tick();
      await applyPendingAdjustments(this.options.db, this.options.core, () => {});
    } catch (err) {
      log.warn(`wallet: ${String(err)}`);
    }
  }

  private async publishItem(userId: number, kind: Kind, id: number): Promise<void> {
    const item = await historyItem(this.options.db, kind, id, this.confirmations, this.latestHeight).catch(
      () => null,
    );
    if (!item) return;
    const names = kind === 'deposits' ? DEPOSIT_STREAM_NAMES : ['withdraw'];
    for (const name of names) this.options.hub.publish(privateStreamKey(userId, name), item, name);
  }

  /** Stops the loops and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.repeating.stop();
    await this.running;
    this.chains.stop();
    await this.stopChains?.();
  }
}
