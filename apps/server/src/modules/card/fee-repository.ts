import type pg from 'pg';
import { type Tx, withTransaction } from '../../db/pool.ts';
import type { CardRow } from './repository.ts';

type Db = pg.Pool | Tx;

/** What the fee run reads of a card. */
export type FeeCard = Pick<
  CardRow,
  | 'id'
  | 'user_id'
  | 'issuer_token'
  | 'status'
  | 'fee_suspended'
  | 'paid_periods'
  | 'fee_attempts'
  | 'next_charge_on'
>;

/** One fee charged for a card's period, as the statement of charges keeps it. */
export interface ChargeLine {
  type: 'activation' | 'annual';
  /** The fee, in the currency's decimal notation. */
  fee: string;
}

/** A refused charge of the period `period`: the next attempt of that period carries a new command id. */
export async function countRefusedCharge(
  db: Db,
  card: Pick<CardRow, 'id' | 'fee_attempts'>,
  period: number,
): Promise<void> {
  await db.query(
    `update cards set fee_attempts = fee_attempts + 1, updated_at = now()
     where id = $1 and paid_periods = $2 and fee_attempts = $3`,
    [card.id, period, card.fee_attempts],
  );
}

/**
 * A paid period, in one transaction: its charges (once each: a repeat finds them) deducted on `today`, and the
 * card paid a year on from `nextFrom`.
 */
export async function recordPaidPeriod(
  db: pg.Pool,
  paid: {
    card: Pick<CardRow, 'id' | 'user_id'>;
    period: number;
    currency: string;
    lines: ChargeLine[];
    commandRef: string;
    today: string;
    nextFrom: string;
  },
): Promise<void> {
  await withTransaction(db, async (tx) => {
    for (const line of paid.lines) {
      await tx.query(
        `insert into card_charges (card_id, user_id, fee_type, period, currency, fee, command_ref, fee_deduction_date)
         values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (card_id, period, fee_type) do nothing`,
        [
          paid.card.id,
          paid.card.user_id,
          line.type,
          paid.period,
          paid.currency,
          line.fee,
          paid.commandRef,
          paid.today,
        ],
      );
    }
    await tx.query(
      `update cards set paid_periods = paid_periods + 1, fee_attempts = 0,
         next_charge_on = ($3::date + interval '1 year')::date, updated_at = now()
       where id = $1 and paid_periods = $2`,
      [paid.card.id, paid.period, paid.nextFrom],
    );
  });
}

/** Up to 500 paid cards in use whose annual fee is due on `today` or earlier, the longest due first. */
export async function cardsDue(db: Db, today: string): Promise<{ id: string }[]> {
  return (
    await db.query<{ id: string }>(
      `select id from cards where next_charge_on <= $1::date and paid_periods > 0
         and status in ('unverified', 'normal', 'loss', 'Card replacement processing') order by next_charge_on, id limit 500`,
      [today],
    )
  ).rows;
}

/** The card's fee went unpaid: it shows unpaid (no next charge) and is suspended for the fee. */
export async function markFeeUnpaid(db: Db, cardId: string): Promise<void> {
  await db.query(
    `update cards set next_charge_on = null, fee_suspended = true, updated_at = now() where id = $1`,
    [cardId],
  );
}

/** Up to 100 cards in use that are paid again but still suspended for an unpaid fee. */
export async function paidButSuspended(db: Db): Promise<{ id: string }[]> {
  return (
    await db.query<{ id: string }>(
      `select id from cards where fee_suspended and next_charge_on is not null
         and status in ('unverified', 'normal', 'loss', 'Card replacement processing') limit 100`,
    )
  ).rows;
}

/** A card as the fee run reads it, or undefined. */
export async function feeCard(db: Db, id: string): Promise<FeeCard | undefined> {
  return (
    await db.query<FeeCard>(
      `select id, user_id, issuer_token, status, fee_suspended, paid_periods, fee_attempts,
         to_char(next_charge_on, 'YYYY-MM-DD') as next_charge_on from cards where id = $1`,
      [id],
    )
  ).rows[0];
}
