import { type Tx, withTransaction } from '@exchange/server/provider-kit';
import { formatUnits } from '@exchange/shared';
import type pg from 'pg';
import { insertSimTransaction, SIM_USDT_DECIMALS } from './money.ts';
import { enqueueWebhook, type SimCardRow } from './store.ts';

/** The `transactions` webhook types of a balance moved from a replaced card (121) to its replacement (120). */
export const TRANSFER_EVENT = { out: 'transfer.card.out', in: 'transfer.card.in' } as const;

/**
 * Moves the balance of replaced cards to their replacements (docs/cards.md#constants: "replaced card balance moves within 24
 * hours"): once a replacement (`new_pan_from`) is delivered, whatever the card it replaces still holds goes to
 * it, as a Transfer-Out (121) on the old card and a Transfer-In (120) on the new one, each with its
 * `transactions` webhook. The money stays with the issuer (the exchange's `card` float does not move).
 *
 * Exactly once: both cards are locked and the old card's balance is read, moved and zeroed in one transaction,
 * so running this again (another tick, another process, after a restart) finds nothing left to move. Money
 * that reaches the old card later (a refund, a top-up settled late) is moved by the next tick the same way.
 */
export async function moveReplacedBalances(db: pg.Pool, rate: bigint): Promise<number> {
  const due = await db.query(
    `select n.token from cardsim_cards n join cardsim_cards o on o.token = n.new_pan_from
     where n.fulfillment_status = 'DELIVERED' and o.balance <> 0 order by n.created_time limit 100`,
  );
  let moved = 0;
  for (const { token } of due.rows) {
    if (await withTransaction(db, (tx) => moveOne(tx, token, rate))) moved++;
  }
  return moved;
}

async function moveOne(tx: Tx, newToken: string, rate: bigint): Promise<boolean> {
  const fresh: SimCardRow & { new_pan_from: string | null } = (
    await tx.query('select * from cardsim_cards where token = $1', [newToken])
  ).rows[0];
  if (!fresh?.new_pan_from || fresh.fulfillment_status !== 'DELIVERED') return false;
  // Both rows locked in one order (by token) so that two movers, or a spend on either card, cannot interleave.
  const locked: (SimCardRow & { balance: string })[] = (
    await tx.query('select * from cardsim_cards where token = any($1) order by token for update', [
      [newToken, fresh.new_pan_from],
    ])
  ).rows;
  const oldCard = locked.find((c) => c.token === fresh.new_pan_from);
  const newCard = locked.find((c) => c.token === newToken);
  if (!oldCard || !newCard) return false;
  const units = BigInt(oldCard.balance);
  // A balance below zero is not the simulator's to move (it never goes there: charges decline first).
  if (units <= 0n) return false;
  await tx.query('update cardsim_cards set balance = balance - $2 where token = $1', [
    oldCard.token,
    units.toString(),
  ]);
  await tx.query('update cardsim_cards set balance = balance + $2 where token = $1', [
    newCard.token,
    units.toString(),
  ]);
  const merchant = 'Card replacement';
  const out = await insertSimTransaction(tx, {
    cardToken: oldCard.token,
    typeCode: 121,
    status: 'settled',
    usdtUnits: -units,
    rate,
    merchant,
  });
  const into = await insertSimTransaction(tx, {
    cardToken: newCard.token,
    typeCode: 120,
    status: 'settled',
    usdtUnits: units,
    rate,
    merchant,
    related: out,
  });
  const amount = formatUnits(units, SIM_USDT_DECIMALS);
  const event = (card: SimCardRow, token: string, type: string, balance: bigint) => ({
    token: `${token}_${type}`,
    type,
    state: 'COMPLETION',
    user_token: card.user_token,
    card_token: card.token,
    amount,
    currency_code: 'USDT',
    gpa: { available_balance: formatUnits(balance, SIM_USDT_DECIMALS) },
    created_time: new Date().toISOString(),
  });
  await enqueueWebhook(tx, {
    transactions: [
      event(oldCard, out, TRANSFER_EVENT.out, 0n),
      event(newCard, into, TRANSFER_EVENT.in, BigInt(newCard.balance) + units),
    ],
  });
  return true;
}
