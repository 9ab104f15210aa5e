import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';
import type { NoRows, SelectOne, Tx } from '../../db/pool.ts';
import type { TravelRuleBeneficiary } from '../compliance/travel-rule/withdrawal-check.ts';

/** The wallet's SQL on saved withdrawal addresses (`beneficiaries`). */
type Db = pg.Pool | Tx;

/** A beneficiary as a removal link shows it. */
export interface RemovalSubjectRow {
  /** bigint, as text. */
  id: string;
  name: string;
  currency_id: string;
  blockchain_key: string;
  address: string;
}

/** The beneficiary `id` as its removal link shows it, whoever owns it; undefined when there is none. */
export async function beneficiaryForRemoval(db: Db, id: string): Promise<RemovalSubjectRow | undefined> {
  return (
    await db.query<RemovalSubjectRow>(
      'select id, name, currency_id, blockchain_key, address from beneficiaries where id = $1',
      [id],
    )
  ).rows[0];
}

/**
 * Deletes the beneficiary `id`, whoever owns it.
 * @returns its owner's id, or undefined when there was none to delete.
 */
export async function deleteBeneficiaryById(db: Db, id: number): Promise<string | undefined> {
  const removed = await db.query<{ user_id: string }>(
    'delete from beneficiaries where id = $1 returning user_id',
    [id],
  );
  return removed.rowCount === 1 ? removed.rows[0]?.user_id : undefined;
}

/**
 * A beneficiaries row (with `internal` and `uid` where the query adds them). Its travel rule columns (whom the address belongs to, and where it is held; null: the client did not say) are
 * those the travel rule's check reads.
 */
export interface BeneficiaryRow extends TravelRuleBeneficiary {
  id: string;
  name: string;
  description: string;
  currency_id: string;
  blockchain_key: string;
  address: string;
  memo: string | null;
  state: 'pending' | 'active';
  created_at: Date;
  /** When the last activation pin was mailed. */
  pin_sent_at: Date | null;
  /** A deposit address of another user of this exchange: a withdrawal there is an internal transfer. */
  internal?: boolean;
  /** The owner's uid (Peatio's `uid`). */
  uid?: string;
}

/** The `internal` column of a beneficiaries row: its address is another user's deposit address on its network. */
const INTERNAL = `exists(select 1 from deposit_addresses d where d.blockchain_key = beneficiaries.blockchain_key
  and d.address = beneficiaries.address and d.user_id <> beneficiaries.user_id) as internal,
  (select u.uid from users u where u.id = beneficiaries.user_id) as uid`;

/** What the user's beneficiaries list is filtered by; null leaves a filter out. */
export interface BeneficiaryFilters {
  userId: string;
  currency: string | null;
  blockchainKey: string | null;
  state: string | null;
}

/** Whether `id` is a visible currency. */
export async function isVisibleCurrency(db: Db, id: string): Promise<boolean> {
  const known = await db.query<SelectOne>('select 1 from currencies where id = $1 and visible', [id]);
  return known.rowCount === 1;
}

/** A page of the user's beneficiaries, newest first, and how many match in all. */
export async function beneficiariesPage(
  db: Db,
  f: BeneficiaryFilters,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: BeneficiaryRow[] }> {
  const where = `user_id = $1 and ($2::text is null or currency_id = $2)
    and ($3::text is null or blockchain_key = $3) and ($4::text is null or state = $4)`;
  const values = [f.userId, f.currency, f.blockchainKey, f.state];
  const [rows, total] = await Promise.all([
    db.query<BeneficiaryRow>(
      `select *, ${INTERNAL} from beneficiaries where ${where} order by id desc limit $5 offset $6`,
      [...values, limit, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from beneficiaries where ${where}`, values),
  ]);
  const counted = total.rows[0];
  if (!counted) throw new Error('the beneficiaries count returned no row');
  return { total: counted.n, rows: rows.rows };
}

/** A {@link Keyset} page of all the user's beneficiaries, oldest first. */
export async function beneficiaryRowsAfter(db: Db, userId: string, page: Keyset): Promise<BeneficiaryRow[]> {
  return (
    await db.query<BeneficiaryRow>(
      `select *, ${INTERNAL} from beneficiaries where user_id = $1 and id > $2 and id <= $3 order by id limit $4`,
      [userId, page.after, page.upTo, page.limit],
    )
  ).rows;
}

/** The user's beneficiary `id` with `internal` and `uid`, or undefined. */
export async function beneficiaryWithInternal(
  db: Db,
  userId: string,
  id: number,
): Promise<BeneficiaryRow | undefined> {
  return (
    await db.query<BeneficiaryRow>(
      `select *, ${INTERNAL} from beneficiaries where id = $1 and user_id = $2`,
      [id, userId],
    )
  ).rows[0];
}

/** The user's beneficiary `id`, or undefined. */
export async function beneficiaryOf(db: Db, userId: string, id: number): Promise<BeneficiaryRow | undefined> {
  return (
    await db.query<BeneficiaryRow>('select * from beneficiaries where id = $1 and user_id = $2', [id, userId])
  ).rows[0];
}

/** A beneficiary to save (pending). */
export interface NewBeneficiary {
  userId: string;
  currency: string;
  blockchainKey: string;
  name: string;
  description: string;
  address: string;
  memo: string | null;
  beneficiaryName: string | null;
  hosting: string | null;
  providerId: string | null;
  providerName: string | null;
  providerLei: string | null;
}

/** Saves a pending beneficiary. @returns it, or undefined when the user has it already. */
export async function insertBeneficiary(db: Db, b: NewBeneficiary): Promise<BeneficiaryRow | undefined> {
  const inserted = await db.query<BeneficiaryRow>(
    `insert into beneficiaries (user_id, currency_id, blockchain_key, name, description, address, memo,
         beneficiary_name, hosting, provider_id, provider_name, provider_lei)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict do nothing returning *, ${INTERNAL}`,
    [
      b.userId,
      b.currency,
      b.blockchainKey,
      b.name,
      b.description,
      b.address,
      b.memo,
      b.beneficiaryName,
      b.hosting,
      b.providerId,
      b.providerName,
      b.providerLei,
    ],
  );
  return inserted.rowCount === 1 ? inserted.rows[0] : undefined;
}

/**
 * Sets a pending beneficiary's new pin (its hash), sent at `at` (the app's clock) and valid `ttlMinutes` from then;
 * a resend only `resendSeconds` after the last.
 * @returns when it was sent, or undefined when refused (not pending, or too soon).
 */
export async function setBeneficiaryPin(
  db: Db,
  id: string,
  pinHash: string,
  p: { ttlMinutes: number; resend: boolean; resendSeconds: number; at: Date },
): Promise<Date | undefined> {
  const updated = await db.query<{ pin_sent_at: Date }>(
    `update beneficiaries set pin_hash = $2, pin_sent_at = $6, pin_attempts = 0,
       pin_expires_at = $6::timestamptz + make_interval(mins => $3), updated_at = now()
     where id = $1 and state = 'pending'
       and ($4 = false or pin_sent_at is null or pin_sent_at <= $6::timestamptz - make_interval(secs => $5))
     returning pin_sent_at`,
    [id, pinHash, p.ttlMinutes, p.resend, p.resendSeconds, p.at],
  );
  return updated.rowCount === 1 ? updated.rows[0]?.pin_sent_at : undefined;
}

/** A pending beneficiary's pin after counting one more try: its hash, the tries so far, whether it is unexpired. */
export interface PinTryRow {
  pin_hash: string | null;
  pin_attempts: number;
  fresh: boolean | null;
}

/**
 * Counts a try of a pending beneficiary's pin, `fresh` when it is unexpired at `now` (the app's clock).
 * @returns its pin, or undefined when it is not pending.
 */
export async function countPinTry(db: Db, id: string, now: Date): Promise<PinTryRow | undefined> {
  return (
    await db.query<PinTryRow>(
      `update beneficiaries set pin_attempts = pin_attempts + 1 where id = $1 and state = 'pending'
       returning pin_hash, pin_attempts, pin_expires_at > $2 as fresh`,
      [id, now],
    )
  ).rows[0];
}

/**
 * Activates a pending beneficiary at `at` (the app's clock, on which the withdrawal review's new-address window
 * reads it). @returns it (with `internal` and `uid`), or undefined when not pending.
 */
export async function activatePendingBeneficiary(
  db: Db,
  id: string,
  at: Date,
): Promise<BeneficiaryRow | undefined> {
  const updated = await db.query<BeneficiaryRow>(
    `update beneficiaries set state = 'active', pin_hash = null, activated_at = $2, updated_at = now()
       where id = $1 and state = 'pending' returning *, ${INTERNAL}`,
    [id, at],
  );
  return updated.rowCount === 1 ? updated.rows[0] : undefined;
}

/** Deletes the user's beneficiary `id`. @returns whether it was deleted. */
export async function deleteUserBeneficiary(db: Db, id: string, userId: string): Promise<boolean> {
  const removed = await db.query<NoRows>('delete from beneficiaries where id = $1 and user_id = $2', [
    id,
    userId,
  ]);
  return removed.rowCount === 1;
}

/** The first network of a currency (or `key`, when the currency is on it), or undefined. */
export async function beneficiaryNetworkKey(
  db: Db,
  currency: string,
  key: string | null,
): Promise<string | undefined> {
  return (
    await db.query<{ blockchain_key: string }>(
      `select blockchain_key from currency_networks
       where currency_id = $1 and ($2::text is null or blockchain_key = $2) order by id limit 1`,
      [currency, key],
    )
  ).rows[0]?.blockchain_key;
}
