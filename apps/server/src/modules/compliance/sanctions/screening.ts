import type { SanctionsSubjectKind } from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../../clock.ts';
import { Repeating, runEnded } from '../../../jobs/repeating.ts';
import { hasFreezingHit, insertHit } from './hits-repository.ts';
import { currentListId, listEntries, listNames } from './list-repository.ts';
import { NameIndex } from './matcher.ts';
import { dequeueUser, dueUsers, markScreened, queuedUsers, subjectNames } from './screening-repository.ts';

/** How often the job screens the customers whose names changed (and checks whether the daily run is due). */
export const SANCTIONS_QUEUE_INTERVAL_MS = 5_000;
/** How often the daily run looks for customers due (each is screened once every {@link RESCREEN_HOURS}). */
const DAILY_CHECK_MS = 60 * 60 * 1000;
/** Hours between two screenings of the same customer. */
export const RESCREEN_HOURS = 24;
/** Customers per statement of the daily run; it repeats until none is due. */
const BATCH = 200;

/** A name of the customer's that is screened. */
interface Subject {
  kind: SanctionsSubjectKind;
  name: string;
}

/**
 * Whether the customer has a screening hit that compliance has not cleared as a false positive (open, or
 * confirmed): their new withdrawals, payouts and transfers out are frozen (the wallet's withdrawal permission
 * says so, and refuses them with 403 `account.withdraw.sanctions_review`).
 */
export async function sanctionsFrozen(db: pg.Pool, userId: string | number): Promise<boolean> {
  return hasFreezingHit(db, userId);
}

/**
 * Screens customers' names against the current sanctions list: those whose names changed (queued by the
 * database's triggers, within seconds), and every customer once a day. A name scoring at or above `threshold`
 * (0..100) against a list name becomes a hit, which freezes the customer's new withdrawals until compliance
 * decides it ({@link sanctionsFrozen}; refused with 403 `account.withdraw.sanctions_review`). Its time (the daily
 * run's due dates, when a customer was screened) is the app's `clock`.
 */
export class SanctionsScreening {
  private cached: { listId: string; index: NameIndex; entries: Map<number, EntryFacts> } | undefined;
  private readonly repeating: Repeating;
  private running: Promise<unknown> | undefined;
  private dailyAt = 0;

  constructor(
    private readonly db: pg.Pool,
    readonly threshold: number,
    private readonly log: { warn(message: string): void },
    private readonly clock: Clock,
  ) {
    this.repeating = new Repeating(
      SANCTIONS_QUEUE_INTERVAL_MS,
      () => this.tick(),
      (err) => log.warn(`sanctions screening failed: ${String(err)}`),
    );
  }

  /** Runs now, then every few seconds until {@link stop}. */
  start(): void {
    this.repeating.start(true);
  }

  async stop(): Promise<void> {
    this.repeating.stop();
    await runEnded(this.running);
  }

  private tick(): Promise<unknown> {
    this.running = (async () => {
      await this.drainQueue();
      const now = dateOf(this.clock);
      if (now.getTime() - this.dailyAt >= DAILY_CHECK_MS) {
        this.dailyAt = now.getTime();
        await this.runDaily(now);
      }
    })();
    return this.running;
  }

  /** Screens the customers whose names changed since they were last screened; how many. */
  async drainQueue(): Promise<number> {
    const queued = await queuedUsers(this.db, BATCH);
    for (const q of queued) {
      await this.screenUser(q.user_id, dateOf(this.clock));
      // A change queued while this screening ran stays queued for the next pass.
      await dequeueUser(this.db, q.user_id, q.queued_at);
    }
    return queued.length;
  }

  /**
   * The daily screening: every customer with a name to screen who was not screened in the last
   * {@link RESCREEN_HOURS} hours before `now` (or never); with `all`, every one of them (after an import).
   * Returns how many were screened.
   */
  async runDaily(now: Date, all = false): Promise<number> {
    if (!(await this.index())) return 0;
    let total = 0;
    let after = '0';
    for (;;) {
      const due = await dueUsers(this.db, now, BATCH, after, all);
      for (const u of due) await this.screenUser(u.id, now);
      after = due.at(-1)?.id ?? after;
      total += due.length;
      if (due.length < BATCH) return total;
    }
  }

  /**
   * Screens one customer's names now; returns the hits it raised (a name already raised against the same entry
   * is not raised again). Without a list nothing is screened.
   */
  async screenUser(userId: string | number, now: Date): Promise<number> {
    const current = await this.index();
    if (!current) return 0;
    let raised = 0;
    for (const subject of await this.subjects(userId)) {
      for (const match of current.index.match(subject.name, this.threshold)) {
        const entry = current.entries.get(match.entryId);
        if (!entry) continue;
        const inserted = await insertHit(this.db, {
          userId,
          subjectKind: subject.kind,
          subjectName: subject.name,
          listId: current.listId,
          entryLogicalId: entry.logicalId,
          entryReference: entry.reference,
          entryName: match.wholeName,
          entrySubjectType: entry.subjectType,
          entryRegulation: entry.regulation,
          score: match.score,
        });
        if (inserted) raised += 1;
      }
    }
    await markScreened(this.db, userId, current.listId, now, RESCREEN_HOURS);
    if (raised > 0) this.log.warn(`sanctions screening: ${raised} new hit(s) for user ${userId}`);
    return raised;
  }

  /** The customer's names: the profile's, the company's, its representatives' and owners', the beneficiaries'. */
  private async subjects(userId: string | number): Promise<Subject[]> {
    const rows = await subjectNames(this.db, userId);
    const seen = new Set<string>();
    return rows.filter((r): r is Subject => {
      const key = `${r.kind}:${r.name}`;
      if (!r.name?.trim() || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** The current list's names, indexed once per list (an import replaces the index at the next screening). */
  private async index() {
    const listId = await currentListId(this.db);
    if (listId === undefined) return undefined;
    if (this.cached?.listId === listId) return this.cached;
    const entries = new Map<number, EntryFacts>();
    for (const e of await listEntries(this.db, listId))
      entries.set(e.id, {
        logicalId: e.logical_id,
        reference: e.eu_reference,
        subjectType: e.subject_type,
        regulation: e.regulation,
      });
    const names = await listNames(this.db, listId);
    const index = new NameIndex(names.map((n) => ({ entryId: n.entry_id, wholeName: n.whole_name })));
    this.cached = { listId, index, entries };
    return this.cached;
  }
}

interface EntryFacts {
  logicalId: string;
  reference: string | null;
  subjectType: string;
  regulation: string | null;
}
