import type { NoRows, Tx } from '../../db/pool.ts';
import type { CardRow } from './repository.ts';

/**
 * Moves the balance of the card with this issuer token by `amount` × `sign` (a transaction webhook); false when no
 * card has the token.
 */
export async function moveCardBalance(
  tx: Tx,
  cardToken: string,
  amount: string,
  sign: bigint,
): Promise<boolean> {
  const moved = await tx.query<NoRows>(
    'update cards set balance = balance + $2::numeric * $3, updated_at = now() where issuer_token = $1',
    [cardToken, amount, sign.toString()],
  );
  return moved.rowCount === 1;
}

/** A holder as a KYC decision finds it, locked for the decision, with the member's email. */
export interface HolderUnderDecision {
  id: string;
  status: string;
  kyc_token: string | null;
  email: string;
}

/** The holder with this issuer user token, locked until the transaction ends; undefined when none has it. */
export async function holderForDecision(tx: Tx, userToken: string): Promise<HolderUnderDecision | undefined> {
  return (
    await tx.query<HolderUnderDecision>(
      `select h.id, h.status, h.kyc_token, u.email from card_holders h join users u on u.id = h.user_id
       where h.issuer_user_token = $1 for update of h`,
      [userToken],
    )
  ).rows[0];
}

/** A card as a fulfilment event finds it. */
export type CardInFulfilment = Pick<
  CardRow,
  'id' | 'user_id' | 'status' | 'fulfillment' | 'replaces_card_id'
>;

/** The card with this issuer token, locked until the transaction ends; undefined when none has it. */
export async function cardForFulfilment(tx: Tx, cardToken: string): Promise<CardInFulfilment | undefined> {
  return (
    await tx.query<CardInFulfilment>(
      `select id, user_id, status, fulfillment, replaces_card_id from cards where issuer_token = $1 for update`,
      [cardToken],
    )
  ).rows[0];
}

/** The card's fulfilment moves on to `next`. */
export async function setFulfilment(
  tx: Tx,
  cardId: string,
  next: NonNullable<CardRow['fulfillment']>,
): Promise<void> {
  await tx.query('update cards set fulfillment = $2, updated_at = now() where id = $1', [cardId, next]);
}

/**
 * A replacement arrived: the new card appears (not active yet) paid like the card it replaces, which is
 * terminated. Returns the old card's issuer token, to terminate it at the issuer; null when it was gone already.
 */
export async function promoteReplacement(
  tx: Tx,
  card: Pick<CardRow, 'id' | 'replaces_card_id'>,
): Promise<string | null> {
  const old = (
    await tx.query<{ id: string; issuer_token: string }>(
      `select id, issuer_token from cards where id = $1 and status <> 'terminated' for update`,
      [card.replaces_card_id],
    )
  ).rows[0];
  if (!old) return null;
  await tx.query(
    `update cards n set status = 'unverified', paid_periods = o.paid_periods, fee_attempts = o.fee_attempts,
       next_charge_on = o.next_charge_on, fee_suspended = o.fee_suspended, updated_at = now()
     from cards o where n.id = $1 and o.id = $2`,
    [card.id, old.id],
  );
  await tx.query(
    `update cards set status = 'terminated', terminated_at = now(), next_charge_on = null, updated_at = now()
     where id = $1`,
    [old.id],
  );
  return old.issuer_token;
}
