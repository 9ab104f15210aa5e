import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import { Repeating } from '../../jobs/repeating.ts';
import type { ModuleLogger } from '../../log.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import type { SessionStore } from '../identity/sessions.ts';
import type { Wallet } from '../wallet/index.ts';
import { AccountClosure } from './service.ts';

/** How often closures under way are checked for completion (their withdrawals settle in the background). */
export const CLOSURE_SWEEP_INTERVAL_MS = 30_000;

/** The parts of the app a closure service is built from. */
export interface ClosureSources {
  db: pg.Pool;
  keys: ServerKeys;
  core: Core;
  sessions: SessionStore;
  wallet: Wallet;
  logger: ModuleLogger;
}

/** The closure service of an app. */
export function closureService(s: ClosureSources): AccountClosure {
  return new AccountClosure({
    db: s.db,
    keys: s.keys,
    core: s.core,
    sessions: s.sessions,
    withdrawals: () => s.wallet.withdrawDeps(),
    log: s.logger.child({ module: 'account-closure' }),
  });
}

/**
 * The background job (one process at a time): closes every account whose closure has nothing left, once its last
 * withdrawal has settled. The retention periods that follow (correspondence 5 years, records 8) are the erasure
 * job's (`erasure.ts`).
 */
export class ClosureSweep {
  private readonly repeating: Repeating;

  constructor(
    private readonly service: AccountClosure,
    log: { warn(message: string): void },
    intervalMs = CLOSURE_SWEEP_INTERVAL_MS,
  ) {
    this.repeating = new Repeating(
      intervalMs,
      () => this.service.sweep(),
      (err) => log.warn(`account closure sweep failed: ${String(err)}`),
    );
  }

  start(): void {
    this.repeating.start(true);
  }

  stop(): void {
    this.repeating.stop();
  }
}
