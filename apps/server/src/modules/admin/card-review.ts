import { ADMIN_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { CardDeskDecision, CardReviewDesk } from '../../adapters/simulators.ts';
import { AppError } from '../../http/errors.ts';
import { openBytes, type ServerKeys } from '../identity/crypto.ts';
import { isoSql } from '../identity/users-repository.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import { recordStaffAction } from './trail.ts';

/**
 * Card holders waiting for the issuer's identity review, oldest first, with the documents they uploaded. The
 * decision goes to the issuer (the simulator's reviewer, as the CLI's `card review`); its signed `kycs` webhook
 * then moves the holder, as it would from Marqeta.
 */
export async function cardHolderQueue(db: pg.Pool) {
  const rows = await db.query(
    `select u.uid, u.email, h.first_name, h.last_name, h.country, h.id_type, h.status,
       ${isoSql('h.submitted_at')} as submitted_at,
       coalesce((select json_agg(json_build_object('id', d.id, 'type', d.doc_type, 'mime_type', d.mime_type)
         order by d.id) from card_holder_documents d where d.holder_id = h.id), '[]') as documents
     from card_holders h join users u on u.id = h.user_id
     where h.status = 'under_review' order by h.submitted_at, h.id`,
  );
  return rows.rows;
}

/** A document image of a card holder, opened with the server key: served only to staff, never cached. */
export async function cardHolderDocument(db: pg.Pool, keys: ServerKeys, uid: string, id: number) {
  const row = (
    await db.query(
      `select d.mime_type, d.content_sealed from card_holder_documents d join card_holders h on h.id = d.holder_id
       join users u on u.id = h.user_id where u.uid = $1 and d.id = $2`,
      [uid, id],
    )
  ).rows[0];
  if (!row) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  return { mimeType: row.mime_type as string, content: openBytes(keys.encryptionKey, row.content_sealed) };
}

/**
 * Approves a card holder, rejects them, or asks for new documents; the reason of a rejection or an incomplete
 * verdict is the description the holder reads. Recorded in the trail, in the decision's transaction. Never one's
 * own application (403 `admin.user.own_account`).
 */
export async function reviewCardHolder(
  db: pg.Pool,
  desk: CardReviewDesk | undefined,
  staff: Staff,
  uid: string,
  decision: CardDeskDecision,
  reason: string,
) {
  refuseOwnAccount(staff, uid);
  const holder = (
    await db.query(
      `select h.issuer_user_token, h.status from card_holders h join users u on u.id = h.user_id where u.uid = $1`,
      [uid],
    )
  ).rows[0];
  if (!holder) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  // With Marqeta the issuer's own reviewers decide: nothing is reviewable here.
  if (!desk) throw new AppError(422, [ADMIN_ERRORS.cardHolderNotReviewable]);
  const kyc = await desk.decide(
    holder.issuer_user_token,
    decision,
    decision === 'approve' ? undefined : reason,
    (tx, decided) =>
      recordStaffAction(tx, staff, `card_holder.${decision}`, uid, {
        before: { status: holder.status },
        after: { kyc: decided.result.status, reason },
      }),
  );
  if (!kyc) throw new AppError(422, [ADMIN_ERRORS.cardHolderNotReviewable]);
  return { uid, kyc_status: kyc.result.status };
}
