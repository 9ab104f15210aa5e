import { randomBytes } from 'node:crypto';
import {
  CARD_ERRORS,
  CARD_MONEY_ERRORS,
  type CardTopupInput,
  formatUnits,
  type PriceConversion,
  parseUnits,
  type TopupItem,
  type TopupList,
  toUnits,
} from '@exchange/shared';
import { LOCK_FAMILIES, withLock } from '../../db/locks.ts';
import type { Tx } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { CARD_CURRENCY, type CardContext, utcToday, viaIssuer } from './context.ts';
import { eurToUsdt, fmtEur, fmtUsdt, rateUnits, topupFee, USDT_DECIMALS, usdtToEurCents } from './money.ts';
import type { CardRow } from './repository.ts';

/** The funding source of our program at the issuer. */
export const FUNDING_SOURCE_TOKEN = 'program_funding';

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

/** A `gpa.credit` transaction the issuer reports: a top-up settled (COMPLETION) or refused (DECLINED). */
export interface FundingEvent {
  token: string;
  state: string;
  gpa_order?: { token: string } | undefined;
}

/**
 * Top-ups: USDT from the spot wallet onto a card. The money moves through the core first (`CardTopUp`: user →
 * the `card` float and `fees`), then the issuer is asked to fund the card (`POST /gpaorders`); its webhook
 * settles the top-up (the card balance grows) or refuses it, and a refused top-up goes back to the spot balance
 * by one `CardRefund` (`card-refund:<id>`), exactly once.
 *
 * Invariant (checked by the audit): the core's `card` float = Σ amount of top-ups submitted, settled or failed
 * (refund still due) − nothing else; a refunded top-up's amount is back with the user, a settled one is on the
 * card at the issuer.
 */
export class CardTopups {
  constructor(
    private readonly ctx: CardContext,
    private readonly resolve: (user: UserRecord, reference: string) => Promise<CardRow>,
  ) {}

  private get rate(): bigint {
    return rateUnits(this.ctx.fees.eurPerUsdt);
  }

  /** `POST /account/card_topup`. */
  async topup(user: UserRecord, input: CardTopupInput): Promise<TopupItem> {
    const card = await this.resolve(user, input.card_number);
    if (card.status === 'loss') throw invalid(CARD_ERRORS.cardBlocked);
    if (card.status !== 'normal' || card.fee_suspended) throw invalid(CARD_ERRORS.cardNotActive);
    const amount = toUnits(input.usdt_amount, USDT_DECIMALS);
    const fee = topupFee(amount, this.ctx.fees.topupFee);
    const loadLimit = toUnits(this.ctx.fees.loadLimit, USDT_DECIMALS);
    const dailyLimit = toUnits(this.ctx.fees.topupLimit, USDT_DECIMALS);
    // One top-up of a user at a time, from the checks until the core has answered: in this process by the
    // mutex (waiters hold no connection), across processes by the advisory lock held over the same span. The row
    // is committed before the core is asked, so a crash in between is finished by the recovery.
    const row = await this.ctx.mutex.run(`topup:${user.id}`, async () => {
      return withLock(this.ctx.db, [LOCK_FAMILIES.cardTopup, user.id], async (client) => {
        const inserted = await inTransaction(client, async () => {
          // The engine decides; this spares a row for a top-up that cannot pass.
          const available = this.ctx.core.sequencer.state.balance(Number(user.id), CARD_CURRENCY).balance;
          if (available < amount + fee) throw invalid(CARD_MONEY_ERRORS.insufficientBalance);
          const today = utcToday(this.ctx.clock);
          const sums = await cardSums(client, card.id, today);
          if (sums.balance + sums.pending + amount > loadLimit)
            throw new AppError(422, [CARD_MONEY_ERRORS.loadLimitExceeded], { limit: fmtUsdt(loadLimit) });
          if (sums.today + amount > dailyLimit)
            throw new AppError(422, [CARD_MONEY_ERRORS.dailyLimitExceeded], { limit: fmtUsdt(dailyLimit) });
          return (
            await client.query(
              `insert into card_topups (card_id, user_id, amount, fee, state, issuer_token, created_on)
               values ($1, $2, $3, $4, 'new', $5, $6::date) returning *`,
              [
                card.id,
                user.id,
                fmtUsdt(amount),
                fmtUsdt(fee),
                `ctp_${randomBytes(12).toString('hex')}`,
                today,
              ],
            )
          ).rows[0] as TopupRow;
        });
        const result = await this.submit(inserted);
        if (result !== 'submitted') throw invalid(result);
        return inserted;
      });
    });
    await this.send(row, card).catch((err) =>
      this.ctx.log.warn({ topup: row.id, err: String(err) }, 'card top-up: funding order not sent yet'),
    );
    return topupItem({ ...row, state: 'submitted' });
  }

  /**
   * Moves a recorded top-up's money through the core (`card-topup:<id>`: a repeat takes no effect). A refusal
   * removes the row (nothing happened); the engine's code is returned.
   */
  private async submit(row: TopupRow): Promise<'submitted' | string> {
    const result = await this.ctx.core.sequencer.submit(
      {
        type: 'CardTopUp',
        user: Number(row.user_id),
        amount: toUnits(row.amount, USDT_DECIMALS),
        fee: toUnits(row.fee, USDT_DECIMALS),
      },
      `card-topup:${row.id}`,
    );
    if (!result.ok) {
      await this.ctx.db.query(`delete from card_topups where id = $1 and state = 'new'`, [row.id]);
      return result.code ?? CARD_MONEY_ERRORS.insufficientBalance;
    }
    await this.ctx.db.query(`update card_topups set state = 'submitted' where id = $1 and state = 'new'`, [
      row.id,
    ]);
    return 'submitted';
  }

  /** Asks the issuer to fund the card; the order's token is the top-up's, so a retry is the same order. */
  private async send(row: TopupRow, card: Pick<CardRow, 'issuer_token'>): Promise<void> {
    const holder = (
      await this.ctx.db.query('select issuer_user_token from card_holders where user_id = $1', [row.user_id])
    ).rows[0];
    await viaIssuer(this.ctx, (issuer) =>
      issuer.createGpaOrder({
        token: row.issuer_token,
        user_token: holder.issuer_user_token,
        card_token: card.issuer_token,
        amount: row.amount,
        currency_code: CARD_CURRENCY.toUpperCase(),
        funding_source_token: FUNDING_SOURCE_TOKEN,
      }),
    );
    await this.ctx.db.query('update card_topups set sent = true where id = $1', [row.id]);
  }

  /**
   * The issuer's `gpa.credit` (in the webhook's transaction): COMPLETION settles the top-up and credits the
   * card balance; DECLINED marks it failed (the refund follows, {@link refund}). Returns the outcome and, when a
   * refund is due, the top-up's id.
   */
  async onFunding(tx: Tx, event: FundingEvent): Promise<{ outcome: string; refund?: string }> {
    const token = event.gpa_order?.token;
    if (!token) return { outcome: 'ignored' };
    const row: TopupRow | undefined = (
      await tx.query('select * from card_topups where issuer_token = $1 for update', [token])
    ).rows[0];
    if (!row) return { outcome: 'unknown' };
    if (row.state !== 'submitted') return { outcome: 'stale' };
    if (event.state === 'COMPLETION') {
      await tx.query(`update card_topups set state = 'settled', settled_at = now() where id = $1`, [row.id]);
      await tx.query('update cards set balance = balance + $2, updated_at = now() where id = $1', [
        row.card_id,
        row.amount,
      ]);
      return { outcome: 'applied' };
    }
    if (event.state === 'DECLINED') {
      await tx.query(`update card_topups set state = 'failed' where id = $1`, [row.id]);
      return { outcome: 'applied', refund: row.id };
    }
    return { outcome: 'ignored' };
  }

  /** Returns a refused top-up's amount to the spot balance: once (`card-refund:<id>`), even across restarts. */
  async refund(id: string): Promise<boolean> {
    const row: TopupRow | undefined = (
      await this.ctx.db.query(`select * from card_topups where id = $1 and state = 'failed'`, [id])
    ).rows[0];
    if (!row) return false;
    const result = await this.ctx.core.sequencer.submit(
      { type: 'CardRefund', user: Number(row.user_id), amount: toUnits(row.amount, USDT_DECIMALS) },
      `card-refund:${row.id}`,
    );
    if (!result.ok) {
      this.ctx.log.warn({ topup: row.id, code: result.code }, 'card top-up: refund refused by the core');
      return false;
    }
    await this.ctx.db.query(
      `update card_topups set state = 'refunded', refunded_at = now() where id = $1 and state = 'failed'`,
      [row.id],
    );
    return true;
  }

  /**
   * Finishes what a stopped process left (the card tick, and at start): top-ups recorded but not through the
   * core (older than `minAgeMs`, so a request under way finishes its own), funding orders not sent, refunds due.
   */
  async recover(minAgeMs = 30_000): Promise<{ submitted: number; sent: number; refunded: number }> {
    const { db } = this.ctx;
    const done = { submitted: 0, sent: 0, refunded: 0 };
    const fresh = (
      await db.query(
        `select * from card_topups where state = 'new' and created_at <= now() - make_interval(secs => $1::float / 1000)
         order by id limit 200`,
        [minAgeMs],
      )
    ).rows as TopupRow[];
    for (const row of fresh) if ((await this.submit(row)) === 'submitted') done.submitted++;
    const unsent = (
      await db.query(
        `select t.*, c.issuer_token as card_token from card_topups t join cards c on c.id = t.card_id
         where t.state = 'submitted' and not t.sent order by t.id limit 200`,
      )
    ).rows as (TopupRow & { card_token: string })[];
    for (const row of unsent) {
      await this.send(row, { issuer_token: row.card_token })
        .then(() => done.sent++)
        .catch((err) => this.ctx.log.warn({ topup: row.id, err: String(err) }, 'card top-up: send failed'));
    }
    const failed = (await db.query(`select id from card_topups where state = 'failed' order by id limit 200`))
      .rows;
    for (const { id } of failed) if (await this.refund(id)) done.refunded++;
    return done;
  }

  /** `GET /account/list/topup_transactions`: one card's top-ups, newest first. */
  async list(user: UserRecord, reference: string, page: number, limit: number): Promise<TopupList> {
    const card = await this.resolve(user, reference);
    const total = (
      await this.ctx.db.query(
        `select count(*)::int as n from card_topups where card_id = $1 and state <> 'new'`,
        [card.id],
      )
    ).rows[0].n as number;
    const rows = (
      await this.ctx.db.query(
        `select * from card_topups where card_id = $1 and state <> 'new' order by id desc limit $2 offset $3`,
        [card.id, limit, (page - 1) * limit],
      )
    ).rows as TopupRow[];
    return { items: rows.map(topupItem), totalItem: total };
  }

  /**
   * The card's balance (USDT units), its top-ups on their way, today's top-ups, and the balance in EUR cents at
   * the current rate.
   */
  async wallet(
    card: Pick<CardRow, 'id'>,
  ): Promise<{ balance: bigint; pending: bigint; today: bigint; eurCents: bigint }> {
    const sums = await cardSums(this.ctx.db, card.id, utcToday(this.ctx.clock));
    return { ...sums, eurCents: usdtToEurCents(sums.balance, this.rate) };
  }

  /** `GET /account/price/conversion`: exact, rounded down once at the end. */
  conversion(q: { currency: 'usdt' | 'euro'; amount: string }): PriceConversion {
    const rate = this.rate;
    if (rate <= 0n) throw invalid(CARD_MONEY_ERRORS.conversionUnavailable);
    let usdt: bigint;
    let eurText: string;
    if (q.currency === 'usdt') {
      usdt = toUnits(q.amount, USDT_DECIMALS);
      eurText = fmtEur(usdtToEurCents(usdt, rate));
    } else {
      const parsed = parseUnits(q.amount, USDT_DECIMALS);
      if (!parsed.ok) throw invalid(CARD_MONEY_ERRORS.conversionAmountInvalid);
      usdt = eurToUsdt(parsed.units, USDT_DECIMALS, rate);
      // The amount typed, exactly.
      eurText = formatUnits(parsed.units, USDT_DECIMALS);
    }
    return {
      currency: q.currency,
      amount: q.amount,
      usdt_amount: fmtUsdt(usdt),
      eur_amount: eurText,
      rate: this.ctx.fees.eurPerUsdt,
      fee: fmtUsdt(topupFee(usdt, this.ctx.fees.topupFee)),
    };
  }
}

/** Runs `work` in a transaction on this connection. */
async function inTransaction<T>(client: Tx, work: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}

/** A card's settled balance, its top-ups on their way, and the top-ups of `today` (UTC), in USDT units. */
async function cardSums(
  db: Tx | CardContext['db'],
  cardId: string,
  today: string,
): Promise<{ balance: bigint; pending: bigint; today: bigint }> {
  const row = (
    await db.query(
      `select c.balance::text as balance,
         coalesce((select sum(amount) from card_topups where card_id = c.id and state = any($2)), 0)::text as pending,
         coalesce((select sum(amount) from card_topups where card_id = c.id and state = any($3)
           and created_on = $4::date), 0)::text as today
       from cards c where c.id = $1`,
      [cardId, PENDING, LIVE, today],
    )
  ).rows[0];
  return {
    balance: toUnits(row.balance, USDT_DECIMALS),
    pending: toUnits(row.pending, USDT_DECIMALS),
    today: toUnits(row.today, USDT_DECIMALS),
  };
}

export function topupItem(row: TopupRow): TopupItem {
  const amount = toUnits(row.amount, USDT_DECIMALS);
  const fee = toUnits(row.fee, USDT_DECIMALS);
  const state = row.state === 'new' ? 'submitted' : row.state;
  return {
    order_no: row.issuer_token,
    created_at: row.created_at.toISOString(),
    topup_status: state === 'settled' ? 'success' : state === 'refunded' ? 'refunded' : 'processing',
    // The spec knows a refused top-up as failed (shown as Processing, docs/cards.md#states), refunded or not yet.
    aasm_state: state === 'refunded' ? 'failed' : state,
    amount: fmtUsdt(amount),
    currency: 'usdt',
    usdt_amount: fmtUsdt(amount + fee),
    fee: fmtUsdt(fee),
  };
}
