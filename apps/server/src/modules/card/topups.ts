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
import { type Tx, transactionOn } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { CARD_CURRENCY, type CardContext, utcToday, viaIssuer } from './context.ts';
import { eurToUsdt, fmtEur, fmtUsdt, rateUnits, topupFee, USDT_DECIMALS, usdtToEurCents } from './money.ts';
import type { CardRow } from './repository.ts';
import {
  cardSumsText,
  dropNewTopup,
  failedTopup,
  failTopup,
  holderToken,
  insertTopup,
  markTopupRefunded,
  markTopupSent,
  markTopupSubmitted,
  refundsDue,
  settleTopup,
  type TopupRow,
  topupByTokenForUpdate,
  topupPage,
  unsentTopups,
  unsubmittedTopups,
} from './topup-repository.ts';

/** The funding source of our program at the issuer. */
export const FUNDING_SOURCE_TOKEN = 'program_funding';

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
        const inserted = await transactionOn(client, async () => {
          // The engine decides; this spares a row for a top-up that cannot pass.
          const available = this.ctx.core.sequencer.state.balance(Number(user.id), CARD_CURRENCY).balance;
          if (available < amount + fee) throw invalid(CARD_MONEY_ERRORS.insufficientBalance);
          const today = utcToday(this.ctx.clock);
          const sums = await cardSums(client, card.id, today);
          if (sums.balance + sums.pending + amount > loadLimit)
            throw new AppError(422, [CARD_MONEY_ERRORS.loadLimitExceeded], { limit: fmtUsdt(loadLimit) });
          if (sums.today + amount > dailyLimit)
            throw new AppError(422, [CARD_MONEY_ERRORS.dailyLimitExceeded], { limit: fmtUsdt(dailyLimit) });
          return insertTopup(client, {
            cardId: card.id,
            userId: user.id,
            amount: fmtUsdt(amount),
            fee: fmtUsdt(fee),
            issuerToken: `ctp_${randomBytes(12).toString('hex')}`,
            today,
          });
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
      await dropNewTopup(this.ctx.db, row.id);
      return result.code ?? CARD_MONEY_ERRORS.insufficientBalance;
    }
    await markTopupSubmitted(this.ctx.db, row.id);
    return 'submitted';
  }

  /** Asks the issuer to fund the card; the order's token is the top-up's, so a retry is the same order. */
  private async send(row: TopupRow, card: Pick<CardRow, 'issuer_token'>): Promise<void> {
    const userToken = await holderToken(this.ctx.db, row.user_id);
    // A top-up is only ever made on a holder's card: none here is a broken database, not a refusal.
    if (!userToken) throw new Error(`top-up ${row.id}: its user has no card holder`);
    await viaIssuer(this.ctx, (issuer) =>
      issuer.createGpaOrder({
        token: row.issuer_token,
        user_token: userToken,
        card_token: card.issuer_token,
        amount: row.amount,
        currency_code: CARD_CURRENCY.toUpperCase(),
        funding_source_token: FUNDING_SOURCE_TOKEN,
      }),
    );
    await markTopupSent(this.ctx.db, row.id);
  }

  /**
   * The issuer's `gpa.credit` (in the webhook's transaction): COMPLETION settles the top-up and credits the
   * card balance; DECLINED marks it failed (the refund follows, {@link refund}). Returns the outcome and, when a
   * refund is due, the top-up's id.
   */
  async onFunding(tx: Tx, event: FundingEvent): Promise<{ outcome: string; refund?: string }> {
    const token = event.gpa_order?.token;
    if (!token) return { outcome: 'ignored' };
    const row = await topupByTokenForUpdate(tx, token);
    if (!row) return { outcome: 'unknown' };
    if (row.state !== 'submitted') return { outcome: 'stale' };
    if (event.state === 'COMPLETION') {
      await settleTopup(tx, row);
      return { outcome: 'applied' };
    }
    if (event.state === 'DECLINED') {
      await failTopup(tx, row.id);
      return { outcome: 'applied', refund: row.id };
    }
    return { outcome: 'ignored' };
  }

  /** Returns a refused top-up's amount to the spot balance: once (`card-refund:<id>`), even across restarts. */
  async refund(id: string): Promise<boolean> {
    const row = await failedTopup(this.ctx.db, id);
    if (!row) return false;
    const result = await this.ctx.core.sequencer.submit(
      { type: 'CardRefund', user: Number(row.user_id), amount: toUnits(row.amount, USDT_DECIMALS) },
      `card-refund:${row.id}`,
    );
    if (!result.ok) {
      this.ctx.log.warn({ topup: row.id, code: result.code }, 'card top-up: refund refused by the core');
      return false;
    }
    await markTopupRefunded(this.ctx.db, row.id);
    return true;
  }

  /**
   * Finishes what a stopped process left (the card tick, and at start): top-ups recorded but not through the
   * core (older than `minAgeMs`, so a request under way finishes its own), funding orders not sent, refunds due.
   */
  async recover(minAgeMs = 30_000): Promise<{ submitted: number; sent: number; refunded: number }> {
    const { db } = this.ctx;
    const done = { submitted: 0, sent: 0, refunded: 0 };
    for (const row of await unsubmittedTopups(db, minAgeMs))
      if ((await this.submit(row)) === 'submitted') done.submitted++;
    for (const row of await unsentTopups(db)) {
      await this.send(row, { issuer_token: row.card_token })
        .then(() => done.sent++)
        .catch((err) => this.ctx.log.warn({ topup: row.id, err: String(err) }, 'card top-up: send failed'));
    }
    for (const { id } of await refundsDue(db)) if (await this.refund(id)) done.refunded++;
    return done;
  }

  /** `GET /account/list/topup_transactions`: one card's top-ups, newest first. */
  async list(user: UserRecord, reference: string, page: number, limit: number): Promise<TopupList> {
    const card = await this.resolve(user, reference);
    const { rows, total } = await topupPage(this.ctx.db, card.id, page, limit);
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

/** A card's settled balance, its top-ups on their way, and the top-ups of `today` (UTC), in USDT units. */
async function cardSums(
  db: Tx | CardContext['db'],
  cardId: string,
  today: string,
): Promise<{ balance: bigint; pending: bigint; today: bigint }> {
  const row = await cardSumsText(db, cardId, today);
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
