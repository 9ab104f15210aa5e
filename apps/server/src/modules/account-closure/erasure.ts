import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import { LOCK_FAMILIES, LOCKS, lockForTransaction, withTryLock } from '../../db/locks.ts';
import { type Tx, withTransaction } from '../../db/pool.ts';
import { Repeating } from '../../jobs/repeating.ts';

/** How often closed accounts are checked for erasure: the dates are days apart, hourly is plenty. */
export const ERASURE_INTERVAL_MS = 60 * 60 * 1000;

/** How many closures one transaction-per-account pass takes at most (the next run takes the rest). */
const BATCH = 100;

/** What replaces an erased name or text (the column stays, non-null, and says what happened). */
export const ERASED = '[erased]';

/** The two stages of the AML policy: correspondence after 5 years, client records after 8. */
export type ErasureStage = 'correspondence' | 'records';

/** The account an erasure runs for (read under its lock). */
interface Target {
  userId: string;
  uid: string;
  email: string;
}

/** One category of personal data: its name in the trail and how it is removed; answers the rows it touched. */
interface Category {
  name: string;
  erase(tx: Tx, who: Target, due: Date): Promise<number>;
}

const count = async (tx: Tx, sql: string, values: unknown[]) => (await tx.query(sql, values)).rowCount ?? 0;

/**
 * Correspondence: what we wrote to the user and they to us. Mail and SMS records have no user id (they are kept
 * by recipient), so they are found by the account's email and phone numbers, which this stage runs before the
 * records stage erases them.
 */
const CORRESPONDENCE: readonly Category[] = [
  {
    name: 'contact_messages',
    erase: (tx, who) =>
      count(tx, 'delete from contact_messages where user_id = $1 or lower(email) = lower($2)', [
        who.userId,
        who.email,
      ]),
  },
  {
    name: 'mail_outbox',
    erase: (tx, who) =>
      count(
        tx,
        `delete from mail_outbox where lower(recipient) = lower($2)
            or recipient in (select number from phones where user_id = $1
                             union select '+' || number from phones where user_id = $1)`,
        [who.userId, who.email],
      ),
  },
];

/**
 * Client records: everything that identifies the person. Money records stay whole (balances, ledger postings,
 * orders, trades, deposits and withdrawals with their amounts, addresses and txids), so the books still add up;
 * the names and bank details on them are replaced by {@link ERASED}.
 */
const RECORDS: readonly Category[] = [
  { name: 'profiles', erase: (tx, w) => count(tx, 'delete from profiles where user_id = $1', [w.userId]) },
  { name: 'phones', erase: (tx, w) => count(tx, 'delete from phones where user_id = $1', [w.userId]) },
  { name: 'labels', erase: (tx, w) => count(tx, 'delete from labels where user_id = $1', [w.userId]) },
  {
    name: 'identity_documents',
    erase: async (tx, w) =>
      (await count(tx, 'delete from kyc_documents where user_id = $1', [w.userId])) +
      (await count(
        tx,
        'delete from card_holder_documents where holder_id in (select id from card_holders where user_id = $1)',
        [w.userId],
      )),
  },
  {
    name: 'card_holder',
    // The document number's column must hold one of its two forms: a placeholder unique to the row.
    erase: (tx, w) =>
      count(
        tx,
        `update card_holders set first_name = $2, last_name = $2, description = null,
                id_no = 'ERASED-' || id, id_no_sealed = null, id_no_hash = null, updated_at = now()
          where user_id = $1`,
        [w.userId, ERASED],
      ),
  },
  {
    name: 'company',
    erase: async (tx, w) =>
      (await count(
        tx,
        `delete from company_documents where company_id in (select id from companies where user_id = $1)`,
        [w.userId],
      )) +
      (await count(
        tx,
        `delete from company_representatives where company_id in (select id from companies where user_id = $1)`,
        [w.userId],
      )) +
      (await count(
        tx,
        `update companies set name = $2, registration_number = $2, address = $2, review_comment = null,
                updated_at = now() where user_id = $1`,
        [w.userId, ERASED],
      )),
  },
  { name: 'sessions', erase: (tx, w) => count(tx, 'delete from sessions where user_id = $1', [w.userId]) },
  {
    name: 'security_log',
    erase: async (tx, w, due) =>
      Number((await tx.query('select retention_erase_activities($1, $2) as n', [w.userId, due])).rows[0].n),
  },
  {
    name: 'ip_whitelist',
    erase: (tx, w) => count(tx, 'delete from login_ip_whitelist where user_id = $1', [w.userId]),
  },
  {
    name: 'credentials',
    erase: async (tx, w) =>
      (await count(tx, 'delete from one_time_codes where user_id = $1', [w.userId])) +
      (await count(tx, 'delete from password_resets where user_id = $1', [w.userId])) +
      (await count(tx, 'delete from login_failures where identifier = lower($1)', [w.email])) +
      (await count(
        tx,
        `update api_keys set secret_enc = $2, allowed_ips = '{}', state = 'inactive', updated_at = now()
          where user_id = $1`,
        [w.userId, ERASED],
      )),
  },
  {
    name: 'beneficiaries',
    erase: (tx, w) =>
      count(
        tx,
        `update beneficiaries set name = $2, description = '', pin_hash = null, updated_at = now()
          where user_id = $1`,
        [w.userId, ERASED],
      ),
  },
  {
    name: 'bank_details',
    erase: async (tx, w) =>
      (await count(
        tx,
        'update fiat_withdrawals set holder = $2, iban = $2, updated_at = now() where user_id = $1',
        [w.userId, ERASED],
      )) +
      (await count(
        tx,
        `update bank_transfers set debtor_name = $2, debtor_iban = $2, remittance_information = null,
                decision_note = null, updated_at = now() where user_id = $1`,
        [w.userId, ERASED],
      )) +
      // A bank deposit's address is the sender's IBAN; its txid (the bank's transaction id) stays.
      (await count(
        tx,
        'update deposits set address = $2 where user_id = $1 and bank_transfer_id is not null',
        [w.userId, ERASED],
      )),
  },
  {
    name: 'payouts',
    // A row's recipient is an address (kept with the withdrawal it made) or another person's email (erased).
    erase: async (tx, w) =>
      (await count(tx, 'update payout_files set file_name = $2 where user_id = $1', [w.userId, ERASED])) +
      (await count(
        tx,
        `update payout_rows set reference = '', recipient = case when recipient like '%@%' then $2 else recipient end
          where file_id in (select id from payout_files where user_id = $1)`,
        [w.userId, ERASED],
      )),
  },
  {
    name: 'account',
    // The uid stays (the ledger's and the trail's key); the email becomes a placeholder no one can receive.
    erase: (tx, w) =>
      count(
        tx,
        `update users set email = 'erased-' || uid || '@invalid', password_digest = '', otp = false,
                otp_secret_enc = null, otp_pending_secret_enc = null, anti_phishing_phrase = null, data = null,
                updated_at = now()
          where id = $1`,
        [w.userId],
      ),
  },
];

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
  const due = (
    await db.query(
      `select id::text from account_closures
        where state = 'closed' and ((correspondence_erased_at is null and correspondence_erase_at <= $1)
                                    or (records_erased_at is null and records_erase_at <= $1))
        order by id limit $2`,
      [now, BATCH],
    )
  ).rows as { id: string }[];
  const reports: ErasureReport[] = [];
  for (const { id } of due) reports.push(...(await eraseClosure(db, id, now)));
  return reports;
}

async function eraseClosure(db: pg.Pool, closureId: string, now: Date): Promise<ErasureReport[]> {
  return withTransaction(db, async (tx) => {
    const head = (await tx.query('select user_id::text from account_closures where id = $1', [closureId]))
      .rows[0] as { user_id: string };
    await lockForTransaction(tx, [LOCK_FAMILIES.accountClosure, Number(head.user_id)]);
    // Read again under the lock; the account must be closed for good (users.state 'deleted').
    const row = (
      await tx.query(
        `select u.id::text as user_id, u.uid, u.email,
                c.correspondence_erased_at is null and c.correspondence_erase_at <= $2 as correspondence,
                c.records_erased_at is null and c.records_erase_at <= $2 as records
           from account_closures c join users u on u.id = c.user_id
          where c.id = $1 and c.state = 'closed' and u.state = 'deleted'`,
        [closureId, now],
      )
    ).rows[0] as
      | { user_id: string; uid: string; email: string; correspondence: boolean; records: boolean }
      | undefined;
    if (!row) return [];
    const who: Target = { userId: row.user_id, uid: row.uid, email: row.email };
    const reports: ErasureReport[] = [];
    // Correspondence first: it is found by the email and phones the records stage removes.
    const stages: [ErasureStage, boolean, readonly Category[]][] = [
      ['correspondence', row.correspondence, CORRESPONDENCE],
      ['records', row.records, RECORDS],
    ];
    for (const [stage, isDue, categories] of stages) {
      if (!isDue) continue;
      const rows: Record<string, number> = {};
      for (const category of categories) {
        rows[category.name] = await category.erase(tx, who, now);
        await tx.query(
          `insert into retention_erasures (user_id, uid, stage, category, rows, due_at)
           values ($1, $2, $3, $4, $5, $6)`,
          [who.userId, who.uid, stage, category.name, rows[category.name], now],
        );
      }
      await tx.query(`update account_closures set ${stage}_erased_at = now() where id = $1`, [closureId]);
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
