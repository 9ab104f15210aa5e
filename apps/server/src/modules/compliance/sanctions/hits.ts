import { type AdminSanctionsHit, type DecideSanctionsHitInput, SANCTIONS_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { isoSql } from '../../identity/users-repository.ts';

const SELECT = `select h.id::int, u.uid, u.email, h.subject_kind, h.subject_name, h.entry_logical_id,
    h.entry_reference, h.entry_name, h.entry_subject_type, h.entry_regulation, h.score, h.state,
    d.email as decided_by, ${isoSql('h.decided_at')} as decided_at, h.reason, ${isoSql('h.created_at')} as created_at
  from sanctions_hits h join users u on u.id = h.user_id left join users d on d.id = h.decided_by`;

/** The screening hits in one state (or all), newest first. */
export async function listSanctionsHits(
  db: pg.Pool,
  state: 'open' | 'false_positive' | 'confirmed' | 'all',
): Promise<AdminSanctionsHit[]> {
  return (
    await db.query(`${SELECT} where ($1 = 'all' or h.state = $1) order by h.id desc limit 500`, [state])
  ).rows;
}

/**
 * Decides an open hit: a false positive (the customer's withdrawals open again unless another hit holds them) or
 * confirmed (they stay frozen). The decision, its reason and who made it are kept on the hit and in the staff
 * trail (target: the customer's uid). Never on the staff member's own account (403 `admin.user.own_account`);
 * 404 for an unknown hit, 422 for one decided already.
 */
export async function decideSanctionsHit(
  db: pg.Pool,
  staff: Staff,
  id: number,
  input: DecideSanctionsHitInput,
): Promise<AdminSanctionsHit> {
  return withTransaction(db, async (tx) => {
    const hit = (
      await tx.query(
        `select h.user_id, h.state, u.uid from sanctions_hits h join users u on u.id = h.user_id
         where h.id = $1 for update of h`,
        [id],
      )
    ).rows[0];
    if (!hit) throw new AppError(404, [SANCTIONS_ERRORS.hitNotFound]);
    refuseOwnAccount(staff, String(hit.user_id));
    if (hit.state !== 'open') throw new AppError(422, [SANCTIONS_ERRORS.alreadyDecided]);
    await tx.query(
      `update sanctions_hits set state = $2, decided_by = $3, decided_at = now(), reason = $4 where id = $1`,
      [id, input.decision, staff.user.id, input.reason],
    );
    await recordStaffAction(tx, staff, 'sanctions.hit.decide', hit.uid, {
      before: { hit: id, state: 'open' },
      after: { hit: id, state: input.decision, reason: input.reason },
    });
    return (await tx.query(`${SELECT} where h.id = $1`, [id])).rows[0];
  });
}
