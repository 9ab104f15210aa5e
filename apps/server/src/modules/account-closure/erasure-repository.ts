import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';

/** What replaces an erased name or text (the column stays, non-null, and says what happened). */
export const ERASED = '[erased]';

/** The two stages of the AML policy: correspondence after 5 years, client records after 8. */
export type ErasureStage = 'correspondence' | 'records';

/** The account an erasure runs for (read under its lock). */
export interface ErasureTarget {
  userId: string;
  uid: string;
  email: string;
}

/** One category of personal data: its name in the trail and how it is removed; answers the rows it touched. */
export interface ErasureCategory {
  name: string;
  erase(tx: Tx, who: ErasureTarget, due: Date): Promise<number>;
}

/** Runs one statement of an erasure (a delete or an update, without `returning`); the rows it touched. */
const count = async (tx: Tx, sql: string, values: unknown[]) =>
  (await tx.query<NoRows>(sql, values)).rowCount ?? 0;

/** Deletes the account's rows of `table` (by its `user_id`). */
const deleteOwn = (tx: Tx, w: ErasureTarget, table: string) =>
  count(tx, `delete from ${table} where user_id = $1`, [w.userId]);

/** Deletes the rows of `table` that belong to the account's company (by their `company_id`). */
const deleteOfCompany = (tx: Tx, w: ErasureTarget, table: string) =>
  count(tx, `delete from ${table} where company_id in (select id from companies where user_id = $1)`, [
    w.userId,
  ]);

/**
 * Overwrites personal columns of the account's rows of `table` (by its `user_id`): `set` names them, with `$2` for
 * {@link ERASED}; the rows' `updated_at` is stamped.
 */
const overwriteOwn = (tx: Tx, w: ErasureTarget, table: string, set: string) =>
  count(tx, `update ${table} set ${set}, updated_at = now() where user_id = $1`, [w.userId, ERASED]);

/**
 * Correspondence: what we wrote to the user and they to us. Mail and SMS records have no user id (they are kept
 * by recipient), so they are found by the account's email and phone numbers, which this stage runs before the
 * records stage erases them.
 */
export const CORRESPONDENCE: readonly ErasureCategory[] = [
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
export const RECORDS: readonly ErasureCategory[] = [
  { name: 'profiles', erase: (tx, w) => deleteOwn(tx, w, 'profiles') },
  { name: 'phones', erase: (tx, w) => deleteOwn(tx, w, 'phones') },
  { name: 'labels', erase: (tx, w) => deleteOwn(tx, w, 'labels') },
  {
    name: 'identity_documents',
    erase: async (tx, w) =>
      (await deleteOwn(tx, w, 'kyc_documents')) +
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
      overwriteOwn(
        tx,
        w,
        'card_holders',
        `first_name = $2, last_name = $2, description = null, id_no = 'ERASED-' || id, id_no_sealed = null,
         id_no_hash = null`,
      ),
  },
  {
    name: 'company',
    erase: async (tx, w) =>
      (await deleteOfCompany(tx, w, 'company_documents')) +
      (await deleteOfCompany(tx, w, 'company_representatives')) +
      (await overwriteOwn(
        tx,
        w,
        'companies',
        'name = $2, registration_number = $2, address = $2, review_comment = null',
      )),
  },
  { name: 'sessions', erase: (tx, w) => deleteOwn(tx, w, 'sessions') },
  {
    name: 'security_log',
    erase: async (tx, w, due) =>
      Number(
        (
          await tx.query<{ n: number | string }>('select retention_erase_activities($1, $2) as n', [
            w.userId,
            due,
          ])
        ).rows[0]!.n,
      ),
  },
  {
    name: 'ip_whitelist',
    erase: (tx, w) => deleteOwn(tx, w, 'login_ip_whitelist'),
  },
  {
    name: 'credentials',
    erase: async (tx, w) =>
      (await deleteOwn(tx, w, 'one_time_codes')) +
      (await deleteOwn(tx, w, 'password_resets')) +
      (await count(tx, 'delete from login_failures where identifier = lower($1)', [w.email])) +
      (await overwriteOwn(tx, w, 'api_keys', `secret_enc = $2, allowed_ips = '{}', state = 'inactive'`)),
  },
  {
    name: 'beneficiaries',
    erase: (tx, w) => overwriteOwn(tx, w, 'beneficiaries', `name = $2, description = '', pin_hash = null`),
  },
  {
    name: 'bank_details',
    erase: async (tx, w) =>
      (await overwriteOwn(tx, w, 'fiat_withdrawals', 'holder = $2, iban = $2')) +
      (await overwriteOwn(
        tx,
        w,
        'bank_transfers',
        'debtor_name = $2, debtor_iban = $2, remittance_information = null, decision_note = null',
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

/** A closed account's erasure as read under its closure lock: whose, and which stages are due. */
export interface DueErasureRow {
  user_id: string;
  uid: string;
  email: string;
  correspondence: boolean;
  records: boolean;
}

/** Closures with a stage due at `now` and not yet run, oldest first, at most `batch`. */
export async function dueClosures(db: pg.Pool, now: Date, batch: number): Promise<{ id: string }[]> {
  return (
    await db.query<{ id: string }>(
      `select id::text from account_closures
        where state = 'closed' and ((correspondence_erased_at is null and correspondence_erase_at <= $1)
                                    or (records_erased_at is null and records_erase_at <= $1))
        order by id limit $2`,
      [now, batch],
    )
  ).rows;
}

/** The account of a closure (its row id). */
export async function closureUserId(tx: Tx, closureId: string): Promise<string> {
  return (
    await tx.query<{ user_id: string }>('select user_id::text from account_closures where id = $1', [
      closureId,
    ])
  ).rows[0]!.user_id;
}

/**
 * A closure's account and the stages due at `now`, when the closure is closed and the account closed for good
 * (users.state 'deleted'); undefined otherwise.
 */
export async function dueErasure(tx: Tx, closureId: string, now: Date): Promise<DueErasureRow | undefined> {
  return (
    await tx.query<DueErasureRow>(
      `select u.id::text as user_id, u.uid, u.email,
                c.correspondence_erased_at is null and c.correspondence_erase_at <= $2 as correspondence,
                c.records_erased_at is null and c.records_erase_at <= $2 as records
           from account_closures c join users u on u.id = c.user_id
          where c.id = $1 and c.state = 'closed' and u.state = 'deleted'`,
      [closureId, now],
    )
  ).rows[0];
}

/** Records that a category of an account's data was erased at a stage due at `dueAt`: how many rows (never what). */
export async function recordErasure(
  tx: Tx,
  who: ErasureTarget,
  stage: ErasureStage,
  category: string,
  rows: number,
  dueAt: Date,
): Promise<void> {
  await tx.query(
    `insert into retention_erasures (user_id, uid, stage, category, rows, due_at)
           values ($1, $2, $3, $4, $5, $6)`,
    [who.userId, who.uid, stage, category, rows, dueAt],
  );
}

/** Marks a stage of a closure's erasure run (now). */
export async function markStageErased(tx: Tx, closureId: string, stage: ErasureStage): Promise<void> {
  await tx.query(`update account_closures set ${stage}_erased_at = now() where id = $1`, [closureId]);
}
