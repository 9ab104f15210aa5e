import type { SanctionsSubjectKind } from '@exchange/shared';
import type pg from 'pg';
import { Repeating, runEnded } from '../../../jobs/repeating.ts';
import { NameIndex } from './matcher.ts';

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
  const row = (
    await db.query(
      `select 1 from sanctions_hits where user_id = $1 and state in ('open', 'confirmed') limit 1`,
      [userId],
    )
  ).rows[0];
  return row !== undefined;
}

/**
 * Screens customers' names against the current sanctions list: those whose names changed (queued by the
 * database's triggers, within seconds), and every customer once a day. A name scoring at or above `threshold`
 * (0..100) against a list name becomes a hit, which freezes the customer's new withdrawals until compliance
 * decides it ({@link sanctionsFrozen}; refused with 403 `account.withdraw.sanctions_review`).
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
    private readonly now: () => Date = () => new Date(),
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
      const now = this.now();
      if (now.getTime() - this.dailyAt >= DAILY_CHECK_MS) {
        this.dailyAt = now.getTime();
        await this.runDaily(now);
      }
    })();
    return this.running;
  }

  /** Screens the customers whose names changed since they were last screened; how many. */
  async drainQueue(): Promise<number> {
    const queued = (
      await this.db.query<{ user_id: string; queued_at: Date }>(
        `select user_id, queued_at from sanctions_queue order by queued_at limit $1`,
        [BATCH],
      )
    ).rows;
    for (const q of queued) {
      await this.screenUser(q.user_id, this.now());
      // A change queued while this screening ran stays queued for the next pass.
      await this.db.query(`delete from sanctions_queue where user_id = $1 and queued_at <= $2`, [
        q.user_id,
        q.queued_at,
      ]);
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
      const due = (
        await this.db.query<{ id: string }>(
          `select u.id from users u
           left join sanctions_screened s on s.user_id = u.id
           where u.id > $3 and ($4 or s.due_at is null or s.due_at <= $1)
             and (exists (select 1 from profiles p where p.user_id = u.id
                          and coalesce(p.first_name, p.middle_name, p.last_name) is not null)
               or exists (select 1 from companies c where c.user_id = u.id)
               or exists (select 1 from beneficiaries b where b.user_id = u.id))
           order by u.id limit $2`,
          [now, BATCH, after, all],
        )
      ).rows;
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
        const inserted = await this.db.query(
          `insert into sanctions_hits (user_id, subject_kind, subject_name, list_id, entry_logical_id,
             entry_reference, entry_name, entry_subject_type, entry_regulation, score)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           on conflict (user_id, subject_kind, subject_name, entry_logical_id) do nothing`,
          [
            userId,
            subject.kind,
            subject.name,
            current.listId,
            entry.logicalId,
            entry.reference,
            match.wholeName,
            entry.subjectType,
            entry.regulation,
            match.score,
          ],
        );
        raised += inserted.rowCount ?? 0;
      }
    }
    await this.db.query(
      `insert into sanctions_screened (user_id, list_id, screened_at, due_at)
       values ($1, $2, $3, $3::timestamptz + make_interval(hours => $4))
       on conflict (user_id) do update set list_id = $2, screened_at = $3, due_at = excluded.due_at`,
      [userId, current.listId, now, RESCREEN_HOURS],
    );
    if (raised > 0) this.log.warn(`sanctions screening: ${raised} new hit(s) for user ${userId}`);
    return raised;
  }

  /** The customer's names: the profile's, the company's, its representatives' and owners', the beneficiaries'. */
  private async subjects(userId: string | number): Promise<Subject[]> {
    const rows = (
      await this.db.query<Subject>(
        `select 'customer' as kind, name from (
           select concat_ws(' ', nullif(trim(first_name), ''), nullif(trim(middle_name), ''),
             nullif(trim(last_name), '')) as name
           from profiles where user_id = $1 order by id desc limit 1) p
         union all select 'company', name from companies where user_id = $1
         union all select 'representative', r.name from company_representatives r
           join companies c on c.id = r.company_id where c.user_id = $1
         union all select 'beneficiary', name from beneficiaries where user_id = $1
         union all select 'beneficiary', description from beneficiaries where user_id = $1`,
        [userId],
      )
    ).rows;
    const seen = new Set<string>();
    return rows.filter((r) => {
      const key = `${r.kind}:${r.name}`;
      if (!r.name?.trim() || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** The current list's names, indexed once per list (an import replaces the index at the next screening). */
  private async index() {
    const list = (await this.db.query<{ id: string }>(`select id from sanctions_lists where current`))
      .rows[0];
    if (!list) return undefined;
    if (this.cached?.listId === list.id) return this.cached;
    const entries = new Map<number, EntryFacts>();
    for (const e of (
      await this.db.query(
        `select id::int, logical_id, eu_reference, subject_type, regulation from sanctions_entries
         where list_id = $1`,
        [list.id],
      )
    ).rows)
      entries.set(e.id, {
        logicalId: e.logical_id,
        reference: e.eu_reference,
        subjectType: e.subject_type,
        regulation: e.regulation,
      });
    const names = (
      await this.db.query<{ entry_id: number; whole_name: string }>(
        `select n.entry_id::int, n.whole_name from sanctions_names n
         join sanctions_entries e on e.id = n.entry_id where e.list_id = $1 order by n.id`,
        [list.id],
      )
    ).rows;
    const index = new NameIndex(names.map((n) => ({ entryId: n.entry_id, wholeName: n.whole_name })));
    this.cached = { listId: list.id, index, entries };
    return this.cached;
  }
}

interface EntryFacts {
  logicalId: string;
  reference: string | null;
  subjectType: string;
  regulation: string | null;
}
