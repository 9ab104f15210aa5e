import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import { LOCK_FAMILIES, LOCKS, lockForTransaction, withTryLock } from '../../db/locks.ts';
import { withTransaction } from '../../db/pool.ts';
import { Repeating } from '../../jobs/repeating.ts';
import {
  CORRESPONDENCE,
  closureUserId,
  dueClosures,
  dueErasure,
  type ErasureCategory,
  type ErasureStage,
  type ErasureTarget,
  markStageErased,
  RECORDS,
  recordErasure,
} from './erasure-repository.ts';

export { ERASED, type ErasureStage } from './erasure-repository.ts';

/** How often closed accounts are checked for erasure: the dates are days apart, hourly is plenty. */
export const ERASURE_INTERVAL_MS = 60 * 60 * 1000;

/** How many closures one transaction-per-account pass takes at most (the next run takes the rest). */
const BATCH = 100;

/** What one run erased: per account and stage, the categories and their row counts. */
export interface ErasureReport {
  uid: string;
  stage: ErasureStage;
  rows: Record<string, number>;
}

/**
 * Retention erasure (issue 31, part 4; the AML policy): for each closed account, its correspondence once
 * `correspondence_erase_at` has passed and its client records once `records_erase_at` has, each stage once (the
 * closure records when it ran) and in one transaction per account under the account's closure lock, with a row
 * per category in `retention_erasures` (never the content). `now` is a parameter so that the dates can be tested.
 */
export async function eraseDue(db: pg.Pool, now: Date): Promise<ErasureReport[]> {
  const due = await dueClosures(db, now, BATCH);
  const reports: ErasureReport[] = [];
  for (const { id } of due) reports.push(...(await eraseClosure(db, id, now)));
  return reports;
}

async function eraseClosure(db: pg.Pool, closureId: string, now: Date): Promise<ErasureReport[]> {
  return withTransaction(db, async (tx) => {
    const userId = await closureUserId(tx, closureId);
    await lockForTransaction(tx, [LOCK_FAMILIES.accountClosure, Number(userId)]);
    // Read again under the lock; the account must be closed for good (users.state 'deleted').
    const row = await dueErasure(tx, closureId, now);
    if (!row) return [];
    const who: ErasureTarget = { userId: row.user_id, uid: row.uid, email: row.email };
    const reports: ErasureReport[] = [];
    // Correspondence first: it is found by the email and phones the records stage removes.
    const stages: [ErasureStage, boolean, readonly ErasureCategory[]][] = [
      ['correspondence', row.correspondence, CORRESPONDENCE],
      ['records', row.records, RECORDS],
    ];
    for (const [stage, isDue, categories] of stages) {
      if (!isDue) continue;
      const rows: Record<string, number> = {};
      for (const category of categories) {
        const erased = await category.erase(tx, who, now);
        rows[category.name] = erased;
        await recordErasure(tx, who, stage, category.name, erased, now);
      }
      await markStageErased(tx, closureId, stage);
      reports.push({ uid: who.uid, stage, rows });
    }
    return reports;
  });
}

/**
 * The background job (one process at a time: the jobs' lock in a split deployment, and its own advisory lock so
 * two workers never erase at once): runs {@link eraseDue} at start and every {@link ERASURE_INTERVAL_MS}.
 */
export class RetentionErasure {
  private readonly repeating: Repeating;

  constructor(
    private readonly db: pg.Pool,
    /** The app's clock: what is past its retention period is judged on it. */
    clock: Clock,
    log: { warn(message: string): void; info(message: string): void },
    intervalMs = ERASURE_INTERVAL_MS,
  ) {
    this.repeating = new Repeating(
      intervalMs,
      async () => {
        const reports = await this.run(dateOf(clock));
        if (reports.length > 0) log.info(`retention erasure: ${reports.length} stage(s) erased`);
      },
      (err) => log.warn(`retention erasure failed: ${String(err)}`),
    );
  }

  /** One pass as of `now` (nothing when another process is erasing): what it erased. */
  async run(now: Date): Promise<ErasureReport[]> {
    const outcome = await withTryLock(this.db, LOCKS.retentionErasure, () => eraseDue(this.db, now));
    return outcome.locked ? outcome.value : [];
  }

  start(): void {
    this.repeating.start(true);
  }

  stop(): void {
    this.repeating.stop();
  }
}
