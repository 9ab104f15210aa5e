import { type Tx, withTransaction } from '@exchange/server/provider-kit';
import { formatUnits } from '@exchange/shared';
import type pg from 'pg';
import { insertSimTransaction, SIM_RATE_DECIMALS, SIM_USDT_DECIMALS } from './money.ts';
import { enqueueWebhook, type SimCardRow } from './store.ts';

/** The card program's fixed limits (docs/cards.md#constants), in EUR cents. */
export const NETWORK_LIMITS = {
  paymentsPerDay: 500_000n,
  perMonth: 5_000_000n,
  atmPerDay: 200_000n,
  atmMinimum: 1_000n,
  atmMaximum: 100_000n,
} as const;

export type NetworkKind = 'purchase' | 'atm' | 'fee';
export interface NetworkOutcome {
  trade_id: string;
  status: 'settled' | 'declined' | 'reversed';
  reason?: string;
  usdt?: string;
}

/** EUR cents → USDT units at `rate`, rounded up: the card pays at least what the merchant gets. */
export function usdtForEur(eurCents: bigint, rate: bigint): bigint {
  const num = eurCents * 10n ** BigInt(SIM_USDT_DECIMALS + SIM_RATE_DECIMALS - 2);
  return (num + rate - 1n) / rate;
}

const TYPE: Record<NetworkKind, number> = { purchase: 150, atm: 110, fee: 500 };
const EVENT: Record<NetworkKind, string> = {
  purchase: 'authorization',
  atm: 'authorization.atm.withdrawal',
  fee: 'fee.charge',
};

function expired(mmyy: string, now: Date): boolean {
  const year = 2000 + Number(mmyy.slice(2));
  const month = Number(mmyy.slice(0, 2));
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}

/**
 * Sum of EUR cents spent on the card since `since` (a SQL expression of `$3`, the network's now) of the given type
 * codes. A purchase counts
 * once, by its authorisation (150, pending or cleared); its clearing (151) is the same money and is not given
 * here; a reversed purchase no longer counts.
 */
async function spent(tx: Tx, card: string, codes: number[], since: string, now: Date): Promise<bigint> {
  const row = (
    await tx.query(
      `select coalesce(sum(-eur_cents), 0)::text as n from cardsim_transactions
       where card_token = $1 and type_code = any($2) and status in ('pending', 'settled', 'cleared')
         and created_time >= ${since}`,
      [card, codes, now],
    )
  ).rows[0];
  return BigInt(row.n);
}

async function webhook(
  tx: Tx,
  card: SimCardRow,
  type: string,
  state: string,
  token: string,
  units: bigint,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await enqueueWebhook(tx, {
    transactions: [
      {
        token: `${token}_${type}`,
        type,
        state,
        user_token: card.user_token,
        card_token: card.token,
        amount: formatUnits(units, SIM_USDT_DECIMALS),
        currency_code: 'USDT',
        created_time: new Date().toISOString(),
        ...extra,
      },
    ],
  });
}

/**
 * A card used at a merchant (an authorisation, cleared at once: dual message), at an ATM, or charged a fee,
 * declined as an issuer would: the card not active, blocked or expired, short of balance, or over the
 * program's fixed limits. Declines are recorded too. `now` is the network's time: the day and the month the
 * limits count in, and when the charge is recorded (a test names the day instead of depending on the date).
 */
export async function networkCharge(
  db: pg.Pool,
  input: { cardToken: string; kind: NetworkKind; eurCents: bigint; merchant: string; rate: bigint },
  now: Date,
): Promise<NetworkOutcome> {
  return withTransaction(db, async (tx) => {
    const card: (SimCardRow & { balance: string }) | undefined = (
      await tx.query('select * from cardsim_cards where token = $1 for update', [input.cardToken])
    ).rows[0];
    if (!card) throw new Error('unknown card');
    const units = usdtForEur(input.eurCents, input.rate);
    const day = `date_trunc('day', $3::timestamptz at time zone 'utc') at time zone 'utc'`;
    const month = `date_trunc('month', $3::timestamptz at time zone 'utc') at time zone 'utc'`;
    let reason: string | null = null;
    if (input.eurCents <= 0n) reason = 'invalid_amount';
    else if (card.state === 'SUSPENDED') reason = 'card_blocked';
    else if (card.state !== 'ACTIVE') reason = 'card_not_active';
    else if (expired(card.expiration, now)) reason = 'card_expired';
    else if (input.kind === 'atm' && input.eurCents < NETWORK_LIMITS.atmMinimum) reason = 'atm_below_minimum';
    else if (input.kind === 'atm' && input.eurCents > NETWORK_LIMITS.atmMaximum) reason = 'atm_above_maximum';
    else if (
      input.kind === 'atm' &&
      (await spent(tx, card.token, [110], day, now)) + input.eurCents > NETWORK_LIMITS.atmPerDay
    )
      reason = 'atm_daily_limit';
    else if (
      input.kind === 'purchase' &&
      (await spent(tx, card.token, [150], day, now)) + input.eurCents > NETWORK_LIMITS.paymentsPerDay
    )
      reason = 'payments_daily_limit';
    else if (
      input.kind !== 'fee' &&
      (await spent(tx, card.token, [150, 110], month, now)) + input.eurCents > NETWORK_LIMITS.perMonth
    )
      reason = 'monthly_limit';
    else if (BigInt(card.balance) < units) reason = 'insufficient_funds';
    const base = {
      cardToken: card.token,
      typeCode: TYPE[input.kind],
      usdtUnits: -units,
      eurCents: -input.eurCents,
      rate: input.rate,
      merchant: input.merchant,
      at: now,
    };
    if (reason) {
      const token = await insertSimTransaction(tx, { ...base, status: 'declined', declineReason: reason });
      return { trade_id: token, status: 'declined', reason };
    }
    await tx.query('update cardsim_cards set balance = balance - $2 where token = $1', [
      card.token,
      units.toString(),
    ]);
    const token = await insertSimTransaction(tx, {
      ...base,
      status: input.kind === 'purchase' ? 'pending' : 'settled',
    });
    await webhook(
      tx,
      card,
      EVENT[input.kind],
      input.kind === 'purchase' ? 'PENDING' : 'COMPLETION',
      token,
      units,
    );
    if (input.kind === 'purchase') {
      // Cleared at once: the settled payment (151) follows its authorisation (150).
      await tx.query(`update cardsim_transactions set status = 'cleared' where token = $1`, [token]);
      await insertSimTransaction(tx, { ...base, typeCode: 151, status: 'settled', related: token });
      await webhook(tx, card, 'authorization.clearing', 'COMPLETION', token, units);
    }
    return { trade_id: token, status: 'settled', usdt: formatUnits(units, SIM_USDT_DECIMALS) };
  });
}

/**
 * A merchant's refund (10) of part or all of a purchase, or the reversal (2) of all of it (the purchase shows
 * as reversed); the USDT goes back at the purchase's rate.
 */
export async function networkReturn(
  db: pg.Pool,
  input: { tradeId: string; kind: 'refund' | 'reversal'; eurCents?: bigint },
): Promise<NetworkOutcome | 'unknown_trade' | 'too_much'> {
  return withTransaction(db, async (tx) => {
    const auth = (
      await tx.query(
        `select * from cardsim_transactions where token = $1 and type_code = 150 and status in ('pending', 'cleared')
         for update`,
        [input.tradeId],
      )
    ).rows[0];
    if (!auth) return 'unknown_trade';
    const card: SimCardRow = (
      await tx.query('select * from cardsim_cards where token = $1 for update', [auth.card_token])
    ).rows[0];
    const paid = -BigInt(auth.eur_cents);
    const returned = BigInt(
      (
        await tx.query(
          `select coalesce(sum(eur_cents), 0)::text as n from cardsim_transactions
           where related_token = $1 and type_code in (2, 10)`,
          [auth.token],
        )
      ).rows[0].n,
    );
    // A refund or a reversal takes back what is left of the purchase, or the part asked for.
    const remaining = paid - returned;
    const eurCents = input.eurCents ?? remaining;
    if (eurCents <= 0n || eurCents > remaining) return 'too_much';
    const rateUnits = toRateUnits(String(auth.rate));
    const units = eurCents === paid ? -BigInt(auth.usdt_units) : (eurCents * -BigInt(auth.usdt_units)) / paid;
    // Only a reversal of all that is left reverses the purchase itself; a partial one leaves it cleared.
    if (input.kind === 'reversal' && eurCents === remaining)
      await tx.query(
        `update cardsim_transactions set status = 'reversed'
         where (token = $1 or related_token = $1) and type_code in (150, 151)`,
        [auth.token],
      );
    await tx.query('update cardsim_cards set balance = balance + $2 where token = $1', [
      card.token,
      units.toString(),
    ]);
    const token = await insertSimTransaction(tx, {
      cardToken: card.token,
      typeCode: input.kind === 'reversal' ? 2 : 10,
      status: 'settled',
      usdtUnits: units,
      eurCents,
      rate: rateUnits,
      merchant: auth.merchant,
      related: auth.token,
    });
    await webhook(
      tx,
      card,
      input.kind === 'reversal' ? 'authorization.reversal' : 'refund',
      'COMPLETION',
      token,
      units,
    );
    return {
      trade_id: token,
      status: input.kind === 'reversal' ? 'reversed' : 'settled',
      usdt: formatUnits(units, SIM_USDT_DECIMALS),
    };
  });
}

function toRateUnits(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(SIM_RATE_DECIMALS, '0').slice(0, SIM_RATE_DECIMALS));
}

/** The card token of a simulated purchase (type 150) by its trade token, or undefined when there is none. */
export async function purchaseCardToken(db: pg.Pool, tradeId: string): Promise<string | undefined> {
  const row = (
    await db.query('select card_token from cardsim_transactions where token = $1 and type_code = 150', [
      tradeId,
    ])
  ).rows[0] as { card_token: string } | undefined;
  return row?.card_token;
}
