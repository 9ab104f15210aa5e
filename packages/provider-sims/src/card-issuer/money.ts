import { randomBytes } from 'node:crypto';
import { type Tx, withTransaction } from '@exchange/server/provider-kit';
import { formatUnits } from '@exchange/shared';
import type pg from 'pg';
import { enqueueWebhook, type SimCardRow } from './store.ts';

type Db = pg.Pool | Tx;

/** USDT decimals (the simulator keeps balances and amounts in these units). */
export const SIM_USDT_DECIMALS = 6;
/** Decimals of the EUR per USDT rate the simulator stores and multiplies by. */
export const SIM_RATE_DECIMALS = 8;

export interface SimGpaOrderRow {
  token: string;
  user_token: string;
  card_token: string;
  amount: string;
  currency_code: string;
  funding_source_token: string;
  state: 'PENDING' | 'COMPLETION' | 'DECLINED';
  settle_at: Date;
  created_time: Date;
}

/** A funding order as `POST /gpaorders` answers it (Marqeta's fields; the amount a decimal string). */
export function gpaOrderView(o: SimGpaOrderRow) {
  return {
    token: o.token,
    user_token: o.user_token,
    card_token: o.card_token,
    amount: formatUnits(BigInt(o.amount), SIM_USDT_DECIMALS),
    currency_code: o.currency_code,
    funding_source_token: o.funding_source_token,
    state: o.state,
    created_time: o.created_time.toISOString(),
  };
}

/**
 * `POST /gpaorders`: funds a card (the simulator keeps one balance per card: `card_token` is its extension of
 * Marqeta's user-level GPA). Pending until `settleSeconds` have passed; the same token again is the same order.
 */
export async function createSimGpaOrder(
  db: pg.Pool,
  input: {
    token: string;
    userToken: string;
    cardToken: string;
    units: bigint;
    currencyCode: string;
    fundingSourceToken: string;
  },
  settleSeconds: number,
): Promise<SimGpaOrderRow | 'unknown_card' | 'token_taken'> {
  const card = (await db.query('select user_token from cardsim_cards where token = $1', [input.cardToken]))
    .rows[0];
  if (!card || card.user_token !== input.userToken) return 'unknown_card';
  const row = (
    await db.query(
      `insert into cardsim_gpaorders (token, user_token, card_token, amount, currency_code, funding_source_token,
         state, settle_at) values ($1, $2, $3, $4, $5, $6, 'PENDING', now() + make_interval(secs => $7::int))
       on conflict (token) do nothing returning *`,
      [
        input.token,
        input.userToken,
        input.cardToken,
        input.units.toString(),
        input.currencyCode,
        input.fundingSourceToken,
        settleSeconds,
      ],
    )
  ).rows[0] as SimGpaOrderRow | undefined;
  if (row) return row;
  const existing = (await db.query('select * from cardsim_gpaorders where token = $1', [input.token]))
    .rows[0] as SimGpaOrderRow | undefined;
  if (!existing || existing.card_token !== input.cardToken || BigInt(existing.amount) !== input.units)
    return 'token_taken';
  return existing;
}

/** `amount × rate`, in EUR cents, rounded toward zero (the card never gets a cent it did not pay for). */
export function eurCentsOf(usdtUnits: bigint, rateUnits: bigint): bigint {
  return (usdtUnits * rateUnits) / 10n ** BigInt(SIM_USDT_DECIMALS + SIM_RATE_DECIMALS - 2);
}

/**
 * Settles the funding orders whose time has come: an ACTIVE card is credited (a type 100 transaction, state
 * COMPLETION), any other is refused (DECLINED); either way a `transactions` webhook of type `gpa.credit` is
 * queued. Each order is decided once, under its row lock: running this twice, or in two processes, changes
 * nothing more.
 */
export async function settleDueGpaOrders(db: pg.Pool, rate: bigint, all = false): Promise<number> {
  const due = await db.query(
    `select token from cardsim_gpaorders where state = 'PENDING' and ($1 or settle_at <= now())
     order by settle_at, token limit 200`,
    [all],
  );
  let settled = 0;
  for (const { token } of due.rows) {
    const done = await withTransaction(db, async (tx) => {
      const order: SimGpaOrderRow | undefined = (
        await tx.query(`select * from cardsim_gpaorders where token = $1 and state = 'PENDING' for update`, [
          token,
        ])
      ).rows[0];
      if (!order) return false;
      const card: SimCardRow & { balance: string } = (
        await tx.query('select * from cardsim_cards where token = $1 for update', [order.card_token])
      ).rows[0];
      const units = BigInt(order.amount);
      const ok = card.state === 'ACTIVE';
      await tx.query(`update cardsim_gpaorders set state = $2, last_modified_time = now() where token = $1`, [
        token,
        ok ? 'COMPLETION' : 'DECLINED',
      ]);
      let balance = BigInt(card.balance);
      if (ok) {
        balance += units;
        await tx.query('update cardsim_cards set balance = $2 where token = $1', [
          card.token,
          balance.toString(),
        ]);
      }
      const txn = await insertSimTransaction(tx, {
        cardToken: card.token,
        typeCode: 100,
        status: ok ? 'settled' : 'declined',
        usdtUnits: units,
        rate,
        merchant: 'Top-up',
        declineReason: ok ? null : 'card_not_active',
        token: `txn_${order.token}`,
      });
      await enqueueWebhook(tx, {
        transactions: [
          {
            token: txn,
            type: 'gpa.credit',
            state: ok ? 'COMPLETION' : 'DECLINED',
            user_token: order.user_token,
            card_token: order.card_token,
            amount: formatUnits(units, SIM_USDT_DECIMALS),
            currency_code: order.currency_code,
            gpa_order: { ...gpaOrderView({ ...order, state: ok ? 'COMPLETION' : 'DECLINED' }) },
            gpa: { available_balance: formatUnits(balance, SIM_USDT_DECIMALS) },
            ...(ok ? {} : { response: { code: '1016', memo: 'Card not active' } }),
            created_time: new Date().toISOString(),
          },
        ],
      });
      return true;
    });
    if (done) settled++;
  }
  return settled;
}

/** Records one card network transaction; its token. */
export async function insertSimTransaction(
  db: Db,
  t: {
    cardToken: string;
    typeCode: number;
    status: 'pending' | 'cleared' | 'settled' | 'declined' | 'reversed';
    /** Signed USDT units: negative when money leaves the card. */
    usdtUnits: bigint;
    eurCents?: bigint;
    rate: bigint;
    merchant: string | null;
    declineReason?: string | null;
    related?: string | null;
    token?: string;
    /** When it happened on the network (a charge at a given time); now when not given. */
    at?: Date;
  },
): Promise<string> {
  const token = t.token ?? `txn_${randomBytes(10).toString('hex')}`;
  await db.query(
    `insert into cardsim_transactions (token, card_token, type_code, status, eur_cents, usdt_units, rate, merchant,
       decline_reason, related_token, created_time, settled_time)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, coalesce($11, now()),
       case when $4 = 'settled' then coalesce($11, now()) end)`,
    [
      token,
      t.cardToken,
      t.typeCode,
      t.status,
      (t.eurCents ?? eurCentsOf(t.usdtUnits, t.rate)).toString(),
      t.usdtUnits.toString(),
      formatUnits(t.rate, SIM_RATE_DECIMALS),
      t.merchant,
      t.declineReason ?? null,
      t.related ?? null,
      t.at ?? null,
    ],
  );
  return token;
}

const MARQETA_TYPE: Record<number, string> = {
  100: 'gpa.credit',
  150: 'authorization',
  151: 'authorization.clearing',
  2: 'authorization.reversal',
  10: 'refund',
  110: 'authorization.atm.withdrawal',
  120: 'transfer.card.in',
  121: 'transfer.card.out',
  500: 'fee.charge',
};
const MARQETA_STATE: Record<string, string> = {
  pending: 'PENDING',
  settled: 'COMPLETION',
  declined: 'DECLINED',
  reversed: 'CLEARED',
};

/**
 * `GET /transactions`: a card's transactions between two UTC dates (inclusive), newest first; pending ones
 * (authorisations not cleared) or final ones (settled, declined, reversed). A cleared authorisation is shown
 * by its clearing.
 */
export async function listSimTransactions(
  db: pg.Pool,
  q: { cardToken: string; from: string; to: string; pending: boolean; start: number; count: number },
) {
  const where = `card_token = $1 and created_time >= $2::date and created_time < $3::date + 1
    and status = any($4)`;
  const states = q.pending ? ['pending'] : ['settled', 'declined', 'reversed'];
  const args = [q.cardToken, q.from, q.to, states];
  const total = (await db.query(`select count(*)::int as n from cardsim_transactions where ${where}`, args))
    .rows[0].n as number;
  const rows = (
    await db.query(
      `select *, eur_cents::text as eur, usdt_units::text as usdt, rate::text as rate_text from cardsim_transactions
       where ${where} order by created_time desc, token desc limit $5 offset $6`,
      [...args, q.count, q.start],
    )
  ).rows;
  return {
    count: rows.length,
    start_index: q.start,
    is_more: q.start + rows.length < total,
    total,
    data: rows.map((r) => ({
      token: r.token,
      type: MARQETA_TYPE[r.type_code] ?? 'other',
      type_code: r.type_code,
      state: MARQETA_STATE[r.status] ?? 'PENDING',
      amount: formatUnits(BigInt(r.usdt), SIM_USDT_DECIMALS),
      currency_code: 'USDT',
      card_acceptor: { name: r.merchant },
      currency_conversion: {
        network: {
          original_amount: formatUnits(BigInt(r.eur), 2, 2),
          original_currency_code: 'EUR',
          conversion_rate: r.rate_text,
        },
      },
      preceding_related_transaction_token: r.related_token,
      // As Marqeta's: a GPA credit names its funding order (settleDueGpaOrders names the transaction after it).
      ...(r.type_code === 100 && r.token.startsWith('txn_')
        ? { gpa_order: { token: r.token.slice(4) } }
        : {}),
      decline_reason: r.decline_reason,
      created_time: (r.created_time as Date).toISOString(),
    })),
  };
}
