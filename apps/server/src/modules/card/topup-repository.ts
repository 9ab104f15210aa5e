import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** The fee of each of the card's top-ups among `issuerTokens` (USDT, as stored), by the top-up's issuer token. */
export async function topupFeesByToken(
  db: Db,
  cardId: string,
  issuerTokens: string[],
): Promise<{ issuer_token: string; fee: string }[]> {
  return (
    await db.query<{ issuer_token: string; fee: string }>(
      'select issuer_token, fee::text as fee from card_topups where card_id = $1 and issuer_token = any($2)',
      [cardId, issuerTokens],
    )
  ).rows;
}

/** A top-up row. */
export interface TopupRow {
  id: string;
  card_id: string;
  user_id: string;
  amount: string;
  fee: string;
  state: 'new' | 'submitted' | 'settled' | 'failed' | 'refunded';
  issuer_token: string;
  sent: boolean;
  created_at: Date;
}

/** States whose amount counts as loaded today (towards the daily limit) or on its way to the card. */
const LIVE = ['new', 'submitted', 'settled'];
const PENDING = ['new', 'submitted'];

/** A card's settled balance, its top-ups on their way, and the top-ups of `today` (UTC), as stored (USDT). */
export async function cardSumsText(
  db: Db,
  cardId: string,
  today: string,
): Promise<{ balance: string; pending: string; today: string }> {
  const row = (
    await db.query<{ balance: string; pending: string; today: string }>(
      `select c.balance::text as balance,
         coalesce((select sum(amount) from card_topups where card_id = c.id and state = any($2)), 0)::text as pending,
         coalesce((select sum(amount) from card_topups where card_id = c.id and state = any($3)
           and created_on = $4::date), 0)::text as today
       from cards c where c.id = $1`,
      [cardId, PENDING, LIVE, today],
    )
  ).rows[0];
  if (!row) throw new Error(`no card ${cardId}`);
  return row;
}

/** Records a new top-up of `today` (its money not moved yet). */
export async function insertTopup(
  db: Db,
  t: { cardId: string; userId: string; amount: string; fee: string; issuerToken: string; today: string },
): Promise<TopupRow> {
  const row = (
    await db.query<TopupRow>(
      `insert into card_topups (card_id, user_id, amount, fee, state, issuer_token, created_on)
       values ($1, $2, $3, $4, 'new', $5, $6::date) returning *`,
      [t.cardId, t.userId, t.amount, t.fee, t.issuerToken, t.today],
    )
  ).rows[0];
  if (!row) throw new Error('the top-up was not recorded');
  return row;
}

/** Removes a top-up the core refused (nothing happened). */
export async function dropNewTopup(db: Db, id: string): Promise<void> {
  await db.query(`delete from card_topups where id = $1 and state = 'new'`, [id]);
}

/** The top-up's money went through the core. */
export async function markTopupSubmitted(db: Db, id: string): Promise<void> {
  await db.query(`update card_topups set state = 'submitted' where id = $1 and state = 'new'`, [id]);
}

/** The issuer has the funding order. */
export async function markTopupSent(db: Db, id: string): Promise<void> {
  await db.query('update card_topups set sent = true where id = $1', [id]);
}

/** The member's issuer user token (their card holder's), or undefined. */
export async function holderToken(db: Db, userId: string): Promise<string | undefined> {
  return (
    await db.query<{ issuer_user_token: string }>(
      'select issuer_user_token from card_holders where user_id = $1',
      [userId],
    )
  ).rows[0]?.issuer_user_token;
}

/** The top-up of this funding order, locked until the transaction ends. */
export async function topupByTokenForUpdate(tx: Tx, issuerToken: string): Promise<TopupRow | undefined> {
  return (
    await tx.query<TopupRow>('select * from card_topups where issuer_token = $1 for update', [issuerToken])
  ).rows[0];
}

/** The issuer funded the card: the top-up is settled and its amount is on the card. */
export async function settleTopup(tx: Tx, row: Pick<TopupRow, 'id' | 'card_id' | 'amount'>): Promise<void> {
  await tx.query(`update card_topups set state = 'settled', settled_at = now() where id = $1`, [row.id]);
  await tx.query('update cards set balance = balance + $2, updated_at = now() where id = $1', [
    row.card_id,
    row.amount,
  ]);
}

/** The issuer refused the funding: the top-up failed (its refund is due). */
export async function failTopup(tx: Tx, id: string): Promise<void> {
  await tx.query(`update card_topups set state = 'failed' where id = $1`, [id]);
}

/** The failed top-up with this id, or undefined (not failed, or refunded already). */
export async function failedTopup(db: Db, id: string): Promise<TopupRow | undefined> {
  return (await db.query<TopupRow>(`select * from card_topups where id = $1 and state = 'failed'`, [id]))
    .rows[0];
}

/** The failed top-up's amount went back to the spot balance. */
export async function markTopupRefunded(db: Db, id: string): Promise<void> {
  await db.query(
    `update card_topups set state = 'refunded', refunded_at = now() where id = $1 and state = 'failed'`,
    [id],
  );
}

/** Up to 200 top-ups recorded at least `minAgeMs` ago whose money never went through the core, oldest first. */
export async function unsubmittedTopups(db: Db, minAgeMs: number): Promise<TopupRow[]> {
  return (
    await db.query<TopupRow>(
      `select * from card_topups where state = 'new' and created_at <= now() - make_interval(secs => $1::float / 1000)
       order by id limit 200`,
      [minAgeMs],
    )
  ).rows;
}

/** Up to 200 top-ups through the core whose funding order the issuer may not have, with their card's token. */
export async function unsentTopups(db: Db): Promise<(TopupRow & { card_token: string })[]> {
  return (
    await db.query<TopupRow & { card_token: string }>(
      `select t.*, c.issuer_token as card_token from card_topups t join cards c on c.id = t.card_id
       where t.state = 'submitted' and not t.sent order by t.id limit 200`,
    )
  ).rows;
}

/** Up to 200 failed top-ups whose refund is due, oldest first. */
export async function refundsDue(db: Db): Promise<{ id: string }[]> {
  return (
    await db.query<{ id: string }>(`select id from card_topups where state = 'failed' order by id limit 200`)
  ).rows;
}

/** One page of the card's top-ups (those through the core), newest first, and how many there are in all. */
export async function topupPage(
  db: Db,
  cardId: string,
  page: number,
  limit: number,
): Promise<{ rows: TopupRow[]; total: number }> {
  const total = (
    await db.query<{ n: number }>(
      `select count(*)::int as n from card_topups where card_id = $1 and state <> 'new'`,
      [cardId],
    )
  ).rows[0];
  const rows = (
    await db.query<TopupRow>(
      `select * from card_topups where card_id = $1 and state <> 'new' order by id desc limit $2 offset $3`,
      [cardId, limit, (page - 1) * limit],
    )
  ).rows;
  return { rows, total: total?.n ?? 0 };
}
