import { ADMIN_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { CardDeskDecision, CardReviewDesk } from '../../adapters/simulators.ts';
import { AppError } from '../../http/errors.ts';
import { openBytes, type ServerKeys } from '../identity/crypto.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import {
  type CardHolderQueueItem,
  cardHolderQueueItems,
  holderOfUid,
  sealedHolderDocument,
} from './reviews-repository.ts';
import { recordStaffAction } from './trail.ts';

/**
 * Card holders waiting for the issuer's identity review, oldest first, with the documents they uploaded. The
 * decision goes to the issuer (the simulator's reviewer, as the CLI's `card review`); its signed `kycs` webhook
 * then moves the holder, as it would from Marqeta.
 */
export function cardHolderQueue(db: pg.Pool): Promise<CardHolderQueueItem[]> {
  return cardHolderQueueItems(db);
}

/** A document image of a card holder, opened with the server key: served only to staff, never cached. */
export async function cardHolderDocument(db: pg.Pool, keys: ServerKeys, uid: string, id: number) {
  const row = await sealedHolderDocument(db, uid, id);
  if (!row) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  return { mimeType: row.mime_type, content: openBytes(keys.encryptionKey, row.content_sealed) };
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
  const holder = await holderOfUid(db, uid);
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
