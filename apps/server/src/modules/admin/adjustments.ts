import { ADMIN_ERRORS, parseUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { isoSql } from '../identity/users-repository.ts';
import { applyAdjustment } from '../wallet/adjustments.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import { recordStaffAction } from './trail.ts';

const invalid = (code: string) => new AppError(422, [code]);

/** A staff proposal as the console lists it. */
const SELECT = `select a.id::int, u.uid, u.email, a.currency_id as currency, trim_scale(a.amount)::text as amount,
  a.reason, a.state, p.email as proposed_by, d.email as decided_by,
  ${isoSql('a.created_at')} as created_at
  from adjustments a join users u on u.id = a.user_id
  left join users p on p.id = a.proposed_by left join users d on d.id = a.decided_by`;

/** Adjustments proposed by staff, newest first, optionally in one state. */
export async function listAdjustments(db: pg.Pool, state: string | undefined) {
  return (
    await db.query(
      `${SELECT} where a.proposed_by is not null and ($1::text is null or a.state = $1) order by a.id desc limit 200`,
      [state ?? null],
    )
  ).rows;
}

/**
 * Proposes a credit (or, negative, a debit) of a user's balance. Nothing moves until a second staff member
 * approves it (four eyes). Staff cannot propose for their own account (403 `admin.user.own_account`).
 */
export async function proposeAdjustment(
  db: pg.Pool,
  staff: Staff,
  input: { uid: string; currency: string; amount: string; reason: string },
) {
  const currency = (await db.query('select precision from currencies where id = $1', [input.currency]))
    .rows[0];
  if (!currency) throw invalid(ADMIN_ERRORS.adjustmentInvalidCurrency);
  const parsed = parseUnits(input.amount.replace(/^-/, ''), currency.precision);
  if (!parsed.ok || parsed.units === 0n) throw invalid(ADMIN_ERRORS.adjustmentInvalidAmount);
  const user = (await db.query('select id from users where uid = $1', [input.uid])).rows[0];
  if (!user) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  refuseOwnAccount(staff, user.id);
  const id = await withTransaction(db, async (tx) => {
    const row = (
      await tx.query(
        `insert into adjustments (user_id, currency_id, amount, reason, state, proposed_by)
         values ($1, $2, $3, $4, 'proposed', $5) returning id`,
        [user.id, input.currency, input.amount, input.reason, staff.user.id],
      )
    ).rows[0];
    await recordStaffAction(tx, staff, 'adjustment.propose', `adjustment:${row.id}`, { after: input });
    return Number(row.id);
  });
  return (await db.query(`${SELECT} where a.id = $1`, [id])).rows[0];
}

/**
 * Approves or rejects a proposal. The proposer can do neither with their own (four eyes), and no one decides an
 * adjustment of their own account, whoever proposed it (403 `admin.user.own_account`); the database refuses both
 * too. An approval makes it `pending` and applies it through the core at once, exactly once.
 */
export async function decideAdjustment(
  db: pg.Pool,
  core: Core,
  staff: Staff,
  id: number,
  approve: boolean,
  reason: string | undefined,
) {
  const decided = await withTransaction(db, async (tx) => {
    const current = (
      await tx.query(`select * from adjustments where id = $1 and state = 'proposed' for update`, [id])
    ).rows[0];
    if (!current) throw invalid(ADMIN_ERRORS.adjustmentNotProposed);
    refuseOwnAccount(staff, current.user_id);
    if (String(current.proposed_by) === staff.user.id) throw invalid(ADMIN_ERRORS.adjustmentOwnProposal);
    const state = approve ? 'pending' : 'rejected';
    await tx.query(
      `update adjustments set state = $2, decided_by = $3, decided_at = now(), updated_at = now() where id = $1`,
      [id, state, staff.user.id],
    );
    await recordStaffAction(
      tx,
      staff,
      approve ? 'adjustment.approve' : 'adjustment.reject',
      `adjustment:${id}`,
      {
        before: { state: 'proposed' },
        after: { state, ...(reason ? { reason } : {}) },
      },
    );
    return { ...current, amount: String(current.amount), approve };
  });
  if (decided.approve) await applyAdjustment(db, core, decided);
  return (await db.query(`${SELECT} where a.id = $1`, [id])).rows[0];
}
