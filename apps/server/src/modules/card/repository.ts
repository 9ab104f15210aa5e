import type { CardStatus, HolderStatus, IdType, ShippingAddress } from '@exchange/shared';
import type pg from 'pg';
import { LOCK_FAMILIES, lockForTransaction } from '../../db/locks.ts';
import { type NoRows, type SelectOne, type Tx, withTransaction } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** A card holder row. */
export interface HolderRow {
  id: string;
  user_id: string;
  issuer_user_token: string;
  first_name: string;
  last_name: string;
  country: string;
  id_type: IdType;
  /**
   * The document number, sealed with the server key ({@link sealIdNumber}). The column is null only on a holder from
   * before sealing, until the startup backfill (db/seal-backfill.ts) seals it, so never once the app runs.
   */
  id_no_sealed: string;
  /** Keyed hash of the document number: one holder per number across all users. */
  id_no_hash: string;
  status: HolderStatus;
  description: string | null;
  kyc_token: string | null;
  submitted_at: Date | null;
  reviewed_at: Date | null;
}

/** Statuses a user sees; `ordering`, `replacement_pending` and `terminated` are the server's own. */
export const VISIBLE_STATUSES: readonly CardStatus[] = [
  'unverified',
  'normal',
  'loss',
  'Card replacement processing',
];
export type CardRowStatus = CardStatus | 'ordering' | 'replacement_pending' | 'terminated';

/** A card row; dates as `YYYY-MM-DD` text. */
export interface CardRow {
  id: string;
  user_id: string;
  issuer_token: string;
  pan_enc: string | null;
  first4: string | null;
  last4: string | null;
  expiry: string | null;
  status: CardRowStatus;
  fee_suspended: boolean;
  paid_periods: number;
  fee_attempts: number;
  next_charge_on: string | null;
  shipping: ShippingAddress;
  fulfillment: 'ordered' | 'shipped' | 'delivered' | null;
  replaces_card_id: string | null;
  replaced_by: string | null;
  /** USDT on the card, as the issuer's webhooks reported it. */
  balance: string;
  created_at: Date;
}

const CARD = `id, user_id, issuer_token, pan_enc, first4, last4, expiry, status, fee_suspended, paid_periods,
  fee_attempts, to_char(next_charge_on, 'YYYY-MM-DD') as next_charge_on, shipping, fulfillment, replaces_card_id,
  replaced_by, balance::text as balance, created_at`;

/** Advisory-lock namespace of a user's card slots. */

export async function findHolder(db: Db, userId: string): Promise<HolderRow | undefined> {
  return (await db.query<HolderRow>('select * from card_holders where user_id = $1', [userId])).rows[0];
}

/** Whether a holder has the document number of this keyed hash. */
export async function idNumberTaken(db: Db, idNoHash: string): Promise<boolean> {
  return (
    ((await db.query<SelectOne>('select 1 from card_holders where id_no_hash = $1', [idNoHash])).rowCount ??
      0) > 0
  );
}

export async function insertHolder(
  db: Db,
  h: Omit<HolderRow, 'id' | 'status' | 'description' | 'kyc_token' | 'submitted_at' | 'reviewed_at'>,
): Promise<HolderRow> {
  return (
    await db.query<HolderRow>(
      `insert into card_holders (user_id, issuer_user_token, first_name, last_name, country, id_type, id_no_sealed,
         id_no_hash) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
      [
        h.user_id,
        h.issuer_user_token,
        h.first_name,
        h.last_name,
        h.country,
        h.id_type,
        h.id_no_sealed,
        h.id_no_hash,
      ],
    )
  ).rows[0]!;
}

/** Moves the holder to a review state; `from` guards against a decision racing another. */
export async function setHolderStatus(
  db: Db,
  holderId: string,
  to: HolderStatus,
  fields: { description?: string | null; kycToken?: string | null; from?: HolderStatus[] } = {},
): Promise<HolderRow | undefined> {
  return (
    await db.query<HolderRow>(
      `update card_holders set status = $2, description = $3,
         kyc_token = case when $4::boolean then $5 else kyc_token end,
         submitted_at = case when $2 = 'under_review' then now() else submitted_at end,
         reviewed_at = case when $2 in ('activation_successful', 'rejection', 'incomplete_information') then now()
           else reviewed_at end,
         updated_at = now()
       where id = $1 and ($6::text[] is null or status = any($6)) returning *`,
      [
        holderId,
        to,
        fields.description ?? null,
        fields.kycToken !== undefined,
        fields.kycToken ?? null,
        fields.from ?? null,
      ],
    )
  ).rows[0];
}

/** The user's cards the user sees, oldest first. */
export async function listCards(db: Db, userId: string): Promise<CardRow[]> {
  return (
    await db.query<CardRow>(`select ${CARD} from cards where user_id = $1 and status = any($2) order by id`, [
      userId,
      VISIBLE_STATUSES,
    ])
  ).rows;
}

/** Every card of the user, in any status (an order being placed too), oldest first (the operator's status). */
export async function everyCard(db: Db, userId: string): Promise<CardRow[]> {
  return (await db.query<CardRow>(`select ${CARD} from cards where user_id = $1 order by id`, [userId])).rows;
}

/** Every card of the user the issuer knows (all but an order still being placed), oldest first (the data export). */
export async function issuedCards(db: Db, userId: string): Promise<CardRow[]> {
  return (
    await db.query<CardRow>(
      `select ${CARD} from cards where user_id = $1 and status <> 'ordering' order by id`,
      [userId],
    )
  ).rows;
}

export async function findCard(db: Db, userId: string, id: string): Promise<CardRow | undefined> {
  return (await db.query<CardRow>(`select ${CARD} from cards where user_id = $1 and id = $2`, [userId, id]))
    .rows[0];
}

export async function findCardByToken(db: Db, issuerToken: string): Promise<CardRow | undefined> {
  return (await db.query<CardRow>(`select ${CARD} from cards where issuer_token = $1`, [issuerToken]))
    .rows[0];
}

/** One of the user's visible cards by the keyed hash of its full number. */
export async function findCardByPanHash(db: Db, userId: string, hash: string): Promise<CardRow | undefined> {
  return (
    await db.query<CardRow>(
      `select ${CARD} from cards where user_id = $1 and pan_hash = $2 and status = any($3)`,
      [userId, hash, VISIBLE_STATUSES],
    )
  ).rows[0];
}

/** The user's visible cards with these first and last four digits, newest first. */
export async function findCardsByMask(
  db: Db,
  userId: string,
  first4: string,
  last4: string,
): Promise<CardRow[]> {
  return (
    await db.query<CardRow>(
      `select ${CARD} from cards where user_id = $1 and first4 = $2 and last4 = $3 and status = any($4)
       order by id desc`,
      [userId, first4, last4, VISIBLE_STATUSES],
    )
  ).rows;
}

/** Cards the user holds or is being issued (what counts towards the maximum). */
export async function countCardSlots(db: Db, userId: string): Promise<number> {
  const row = (
    await db.query<{ n: number }>(
      `select count(*)::int as n from cards where user_id = $1 and status = any($2)`,
      [userId, [...VISIBLE_STATUSES, 'ordering']],
    )
  ).rows[0]!;
  return row.n;
}

/**
 * Takes a card slot for a new order, under a per-user advisory lock held only for the count and the insert
 * (never across the issuer call), so concurrent orders of one user, in any process, never exceed `max`.
 * @returns the new card's id, or null when the user has `max` cards already.
 */
export async function reserveCardSlot(
  pool: pg.Pool,
  userId: string,
  issuerToken: string,
  shipping: ShippingAddress,
  max: number,
): Promise<string | null> {
  return withTransaction(pool, async (tx) => {
    await lockForTransaction(tx, [LOCK_FAMILIES.cardSlot, userId]);
    if ((await countCardSlots(tx, userId)) >= max) return null;
    const row = (
      await tx.query<{ id: string }>(
        `insert into cards (user_id, issuer_token, status, shipping) values ($1, $2, 'ordering', $3) returning id`,
        [userId, issuerToken, JSON.stringify(shipping)],
      )
    ).rows[0]!;
    return String(row.id);
  });
}

/** The issuer has the card: its number (sealed), digits for masking and expiry; it becomes visible, unpaid. */
export async function completeOrder(
  db: Db,
  id: string,
  c: { panEnc: string; panHash: string; first4: string; last4: string; expiry: string },
): Promise<void> {
  await db.query(
    `update cards set pan_enc = $2, pan_hash = $3, first4 = $4, last4 = $5, expiry = $6, status = 'unverified',
       fulfillment = 'ordered', updated_at = now() where id = $1 and status = 'ordering'`,
    [id, c.panEnc, c.panHash, c.first4, c.last4, c.expiry],
  );
}

/** The user's card orders placed more than 10 minutes ago and never completed (the issuer may have the card). */
export async function staleOrders(db: Db, userId: string): Promise<{ id: string; issuer_token: string }[]> {
  return (
    await db.query<{ id: string; issuer_token: string }>(
      `select id, issuer_token from cards where user_id = $1 and status = 'ordering'
         and created_at < now() - interval '10 minutes'`,
      [userId],
    )
  ).rows;
}

export async function dropReservation(db: Db, id: string): Promise<void> {
  await db.query(`delete from cards where id = $1 and status = 'ordering'`, [id]);
}

/** Moves a card from one of `from` to `to`; undefined when it was in none of them (a concurrent change). */
export async function moveCard(
  db: Db,
  id: string,
  from: CardRowStatus[],
  to: CardRowStatus,
): Promise<CardRow | undefined> {
  return (
    await db.query<CardRow>(
      `update cards set status = $3, updated_at = now(),
         activated_at = case when $3 = 'normal' and activated_at is null then now() else activated_at end
       where id = $1 and status = any($2) returning ${CARD}`,
      [id, from, to],
    )
  ).rows[0];
}

export async function setFeeSuspended(db: Db, id: string, suspended: boolean): Promise<void> {
  await db.query('update cards set fee_suspended = $2, updated_at = now() where id = $1', [id, suspended]);
}

/** The new card of a replacement, hidden until delivered. */
export async function insertReplacement(
  pool: pg.Pool,
  old: CardRow,
  c: { issuerToken: string; panEnc: string; panHash: string; first4: string; last4: string; expiry: string },
): Promise<string> {
  return withTransaction(pool, async (tx) => {
    const row = (
      await tx.query<{ id: string }>(
        `insert into cards (user_id, issuer_token, pan_enc, pan_hash, first4, last4, expiry, status, shipping,
           fulfillment, replaces_card_id) values ($1, $2, $3, $4, $5, $6, $7, 'replacement_pending', $8, 'ordered', $9)
         returning id`,
        [
          old.user_id,
          c.issuerToken,
          c.panEnc,
          c.panHash,
          c.first4,
          c.last4,
          c.expiry,
          JSON.stringify(old.shipping),
          old.id,
        ],
      )
    ).rows[0]!;
    await tx.query('update cards set replaced_by = $2, updated_at = now() where id = $1', [old.id, row.id]);
    return String(row.id);
  });
}

/** A page of one card's charges, newest first. */
export async function listCharges(db: Db, cardId: string, page: number, limit: number) {
  const total = (
    await db.query<{ n: number }>('select count(*)::int as n from card_charges where card_id = $1', [cardId])
  ).rows[0]!.n;
  const rows = (
    await db.query<{
      fee_type: 'activation' | 'annual';
      currency: string;
      fee: string;
      fee_deduction_date: string;
      created_at: Date;
    }>(
      `select fee_type, currency, fee::text as fee, to_char(fee_deduction_date, 'YYYY-MM-DD') as fee_deduction_date,
         created_at from card_charges where card_id = $1 order by id desc limit $2 offset $3`,
      [cardId, limit, (page - 1) * limit],
    )
  ).rows;
  return { total, rows };
}

/** Records a webhook event as seen; false when its token was seen before (a replay changes nothing). */
export async function recordWebhookEvent(
  tx: Tx,
  event: { token: string; type: string; payload: unknown },
): Promise<boolean> {
  const inserted = await tx.query<NoRows>(
    `insert into card_webhook_events (token, type, outcome, payload) values ($1, $2, 'received', $3)
     on conflict (token) do nothing`,
    [event.token, event.type, JSON.stringify(event.payload)],
  );
  return inserted.rowCount === 1;
}

export async function setWebhookOutcome(tx: Tx, token: string, outcome: string): Promise<void> {
  await tx.query('update card_webhook_events set outcome = $2 where token = $1', [token, outcome]);
}
