import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';

/** The wallet's SQL on withdrawals (`withdrawals`, and what their checks read). */
type Db = pg.Pool | Tx;

/** The figures a new withdrawal's review is decided on (amounts exact decimals, trimmed). */
export interface ReviewFiguresRow {
  /** The limit of one withdrawal at the user's level; null when none is set. */
  per_withdrawal: string | null;
  /** The limit of 24 hours at the user's level; null when none is set. */
  per_day: string | null;
  /** What the user withdrew of the currency in the last 24 hours (returns of the travel rule aside). */
  day_total: string;
  /** Whether the saved address was activated within the new-beneficiary window (false when the window is 0). */
  new_beneficiary: boolean;
  /** Credited deposits of the currency within the pass-through window ('0' when the window is 0). */
  recent_deposits: string;
  /** Withdrawals of the currency within the pass-through window. */
  recent_withdrawals: string;
  /** Whether the user is staff (null for an unknown user). */
  staff: boolean | null;
}

/** What the review of a withdrawal looks at. */
export interface ReviewFiguresInput {
  userId: number;
  currency: string;
  level: number;
  beneficiaryId: number | null;
  newBeneficiaryHours: number;
  passThroughMinutes: number;
  /** The app's clock: the 24 hours, the new-address and the pass-through windows end here. */
  now: Date;
}

/**
 * The limits, totals and flags a new withdrawal's review decides on, read in one statement; its windows are read
 * back from `now` (the withdrawals, activations and credits they count are stamped on the same clock).
 */
export async function reviewFigures(db: Db, w: ReviewFiguresInput): Promise<ReviewFiguresRow> {
  const row = (
    await db.query<ReviewFiguresRow>(
      `with lim as (
         select trim_scale(per_withdrawal)::text as per_withdrawal, trim_scale(per_day)::text as per_day
         from withdraw_limits where currency_id = $2 and level <= $3 order by level desc limit 1)
       select (select per_withdrawal from lim), (select per_day from lim),
         (select coalesce(trim_scale(sum(amount)), 0)::text from withdrawals
           where user_id = $1 and currency_id = $2 and created_at > $7::timestamptz - interval '24 hours'
             and state not in ('rejected', 'canceled', 'failed') and travel_rule_return_of is null) as day_total,
         $5::int > 0 and exists (select 1 from beneficiaries where id = $4
           and activated_at > $7::timestamptz - make_interval(hours => $5::int)) as new_beneficiary,
         case when $6::int > 0 then (select coalesce(trim_scale(sum(amount)), 0)::text from deposits
           where user_id = $1 and currency_id = $2 and credited_at > $7::timestamptz - make_interval(mins => $6::int))
         else '0' end as recent_deposits,
         (select coalesce(trim_scale(sum(amount)), 0)::text from withdrawals
           where user_id = $1 and currency_id = $2 and created_at > $7::timestamptz - make_interval(mins => $6::int)
             and state not in ('rejected', 'canceled', 'failed') and travel_rule_return_of is null) as recent_withdrawals,
         (select role <> 'member' from users where id = $1) as staff`,
      [w.userId, w.currency, w.level, w.beneficiaryId, w.newBeneficiaryHours, w.passThroughMinutes, w.now],
    )
  ).rows[0];
  if (!row) throw new Error(`the review figures of user ${w.userId} returned no row`);
  return row;
}

/**
 * An errored withdrawal was sent after all: it follows `txid` to confirmation.
 * @returns whether it was errored and unresolved (and so changed).
 */
export async function resolveErroredAsSent(db: Db, id: number, txid: string): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update withdrawals set state = 'confirming', txid = $2, error = null, updated_at = now()
           where id = $1 and state = 'errored' and resolution is null`,
    [id, txid],
  );
  return updated.rowCount === 1;
}

/**
 * An errored withdrawal failed: marked for the processor to release its funds.
 * @returns whether it was errored (and so marked).
 */
export async function resolveErroredAsFailed(db: Db, id: number): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update withdrawals set resolution = 'failed' where id = $1 and state = 'errored'`,
    [id],
  );
  return updated.rowCount === 1;
}

/** An errored withdrawal (broadcast outcome unknown) as the command line lists it. */
export interface ErroredWithdrawalRow {
  /** bigint, as text. */
  id: string;
  email: string;
  currency_id: string;
  blockchain_key: string;
  /** Exact decimal, trimmed. */
  amount: string;
  rid: string;
  error: string | null;
  updated_at: Date;
}

/** The errored withdrawals, oldest first, with their owner's email. */
export async function erroredWithdrawals(db: Db): Promise<ErroredWithdrawalRow[]> {
  return (
    await db.query<ErroredWithdrawalRow>(
      `select w.id, u.email, w.currency_id, w.blockchain_key, trim_scale(w.amount)::text as amount, w.rid, w.error, w.updated_at
       from withdrawals w join users u on u.id = w.user_id where w.state = 'errored' order by w.id`,
    )
  ).rows;
}

/**
 * Until when the user's withdrawals wait after their last password or 2FA change (`holdHours` after the later of
 * the two); null when neither happened or the user is unknown.
 */
export async function withdrawHoldUntil(db: Db, userId: string, holdHours: number): Promise<Date | null> {
  const row = (
    await db.query<{ hold_until: Date | null }>(
      `select greatest(u.password_changed_at,
           (select max(created_at) from activities a where a.user_id = u.id and a.topic = 'otp' and a.result = 'succeed'))
         + make_interval(hours => $2) as hold_until
       from users u where u.id = $1`,
      [userId, holdHours],
    )
  ).rows[0];
  return row?.hold_until ?? null;
}

/** A currency's network with its withdrawal rules (amounts exact decimals). */
export interface WithdrawNetworkRow {
  min_withdraw_amount: string;
  withdraw_fee: string;
  withdraw_enabled: boolean;
  precision: number;
}

/** The currency's network `key` with its withdrawal rules, or undefined when the currency is not on it. */
export async function withdrawNetwork(
  db: Db,
  currency: string,
  key: string,
): Promise<WithdrawNetworkRow | undefined> {
  return (
    await db.query<WithdrawNetworkRow>(
      `select n.min_withdraw_amount::text, n.withdraw_fee::text, n.withdraw_enabled, c.precision
       from currency_networks n join currencies c on c.id = n.currency_id
       where n.currency_id = $1 and n.blockchain_key = $2`,
      [currency, key],
    )
  ).rows[0];
}

/** A withdrawal to record, with the entry of the user's security log that goes with it. */
export interface NewWithdrawal {
  userId: string;
  currency: string;
  blockchainKey: string;
  beneficiaryId: number | null;
  rid: string;
  memo: string | null;
  /** Exact decimals. */
  amount: string;
  fee: string;
  /** The user it goes to (internal), or null. */
  recipient: number | null;
  ip: string | null;
  userAgent: string | null;
  /** The security log entry's data (JSON text), the withdrawal's id added to it. */
  logData: string;
  /** The travel rule record's payload (JSON text), or null. */
  travelRule: string | null;
  travelRuleStatus: string | null;
  /** When it was asked for, on the app's clock (the review's windows count it from then). */
  at: Date;
}

/**
 * Records a withdrawal (`prepared`) and its `withdraw.request` entry in the user's security log, in one statement.
 * @returns its id (bigint, as text).
 */
export async function insertWithdrawal(db: Db, w: NewWithdrawal): Promise<string> {
  const row = (
    await db.query<{ id: string }>(
      `with w as (
         insert into withdrawals (user_id, currency_id, blockchain_key, beneficiary_id, rid, memo, amount, fee,
                                  internal_user_id, travel_rule, travel_rule_status, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $13::jsonb, $14, $15) returning id
       ), logged as (
         insert into activities (user_id, action, result, topic, ip, user_agent, data, created_at)
         select $1, 'withdraw.request', 'succeed', 'withdraw', $10, $11,
                jsonb_build_object('id', w.id) || $12::jsonb, $15
           from w
       )
       select id from w`,
      [
        w.userId,
        w.currency,
        w.blockchainKey,
        w.beneficiaryId,
        w.rid,
        w.memo,
        w.amount,
        w.fee,
        w.recipient,
        w.ip,
        w.userAgent,
        w.logData,
        w.travelRule,
        w.travelRuleStatus,
        w.at,
      ],
    )
  ).rows[0];
  if (!row) throw new Error(`the withdrawal of user ${w.userId} was not recorded`);
  return row.id;
}

/** The reference of an internal transfer, shared by both sides: the sender's withdrawal id as `W<id>`. */
const INTERNAL_REFERENCE_SQL = `'W' || w.id`;

/**
 * Marks an internal withdrawal to `recipient` `succeed` (from `accepted` or `confirming`) and records the
 * receiver's deposit, in one statement.
 * @returns the new deposit's id (bigint, as text), or undefined when nothing changed (settled already).
 */
export async function succeedInternalWithdrawal(
  db: Db,
  id: number,
  recipient: number,
  at: Date,
): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      `with w as (
         update withdrawals set state = 'succeed', updated_at = now()
          where id = $1 and state = any('{accepted,confirming}') and internal_user_id = $2
          returning id, internal_user_id, currency_id, blockchain_key, rid, amount)
       insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, state, credited_at,
                             internal_withdrawal_id)
       select internal_user_id, currency_id, blockchain_key, rid, ${INTERNAL_REFERENCE_SQL}, 0, amount, 'collected', $3, id
         from w
       on conflict do nothing
       returning id`,
      [id, recipient, at],
    )
  ).rows[0]?.id;
}

/**
 * Moves a withdrawal to `state` from one of `from`, keeping its error, txid, block height and review reasons
 * where none is given.
 * @returns whether it moved.
 */
export async function moveWithdrawal(
  db: Db,
  id: number,
  state: string,
  from: readonly string[],
  change: {
    error: string | null;
    txid: string | null;
    height: number | null;
    reasons: readonly string[] | null;
  },
): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update withdrawals set state = $2, error = coalesce($3, error), txid = coalesce($4, txid),
       block_height = coalesce($5, block_height), review_reasons = coalesce($7, review_reasons), updated_at = now()
     where id = $1 and state = any($6)`,
    [id, state, change.error, change.txid, change.height, from, change.reasons],
  );
  return updated.rowCount === 1;
}
