import { formatUnits, toUnits } from '@exchange/shared';
import { REASON } from '../../adapters/card-issuer/port.ts';
import { CARD_CURRENCY, type CardContext, utcToday } from './context.ts';
import {
  cardsDue,
  countRefusedCharge,
  type FeeCard,
  feeCard,
  markFeeUnpaid,
  paidButSuspended,
  recordPaidPeriod,
} from './fee-repository.ts';
import { type CardRow, setFeeSuspended } from './repository.ts';

/** One fee line of a period: the activation fee (first period only) and the annual fee. */
interface FeeLine {
  type: 'activation' | 'annual';
  units: bigint;
}

/**
 * Card fees through the exchange core: the activation and first annual fee when a card is paid, then the annual
 * fee every year. Each charge is one `CardFee` command (user USDT → the `fees` account) with the client command
 * id `card-fee:<card>:<period>:<attempt>`: a retry of a charge that went through finds it and charges nothing
 * more; a refused charge is recorded as refused, so the next attempt of that period carries a new id.
 */
export class CardFeeCharger {
  constructor(private readonly ctx: CardContext) {}

  private get precision(): number {
    return this.ctx.core.units.precision(CARD_CURRENCY);
  }

  /** What the card's current period costs: activation plus annual when never paid, else annual. */
  lines(card: Pick<CardRow, 'paid_periods'>): FeeLine[] {
    const annual = { type: 'annual' as const, units: toUnits(this.ctx.fees.annualFee, this.precision) };
    const lines: FeeLine[] =
      card.paid_periods === 0
        ? [{ type: 'activation', units: toUnits(this.ctx.fees.activationFee, this.precision) }, annual]
        : [annual];
    // A fee configured as 0 is not charged (nor listed).
    return lines.filter((l) => l.units > 0n);
  }

  total(card: Pick<CardRow, 'paid_periods'>): bigint {
    return this.lines(card).reduce((sum, l) => sum + l.units, 0n);
  }

  /** The user's available USDT, in units. */
  available(userId: string): bigint {
    return this.ctx.core.sequencer.state.balance(Number(userId), CARD_CURRENCY).balance;
  }

  /**
   * Charges the card's current period. On success records the charges and moves `next_charge_on` a year on:
   * from `nextFrom` (the due date, for a renewal on time) or from today (a first or late payment).
   */
  async charge(card: FeeCard, nextFrom?: string): Promise<'paid' | 'refused'> {
    const period = card.paid_periods;
    const ref = `card-fee:${card.id}:${period}:${card.fee_attempts}`;
    const lines = this.lines(card);
    const amount = lines.reduce((sum, l) => sum + l.units, 0n);
    const result =
      amount > 0n
        ? await this.ctx.core.sequencer.submit({ type: 'CardFee', user: Number(card.user_id), amount }, ref)
        : { ok: true };
    if (!result.ok) {
      await countRefusedCharge(this.ctx.db, card, period);
      return 'refused';
    }
    const today = utcToday(this.ctx.clock);
    await recordPaidPeriod(this.ctx.db, {
      card,
      period,
      currency: CARD_CURRENCY,
      lines: lines.map((line) => ({ type: line.type, fee: formatUnits(line.units, this.precision) })),
      commandRef: ref,
      today,
      nextFrom: nextFrom ?? today,
    });
    return 'paid';
  }

  /**
   * The annual fee run (a worker tick): charges every card whose `next_charge_on` is today or earlier. A card
   * whose fee cannot be paid is not kept active for free: it is suspended at the issuer and shows unpaid
   * (`next_charge_on` null, the Pay button) until paid. Also re-activates at the issuer the cards paid since.
   * @returns how many cards were charged and how many were suspended.
   */
  async chargeDue(today = utcToday(this.ctx.clock)): Promise<{ charged: number; suspended: number }> {
    const { db } = this.ctx;
    const due = await cardsDue(db, today);
    let charged = 0;
    let suspended = 0;
    for (const { id } of due) {
      const card = await feeCard(db, id);
      if (!card?.next_charge_on || card.next_charge_on > today) continue;
      try {
        if ((await this.charge(card, card.next_charge_on)) === 'paid') {
          charged++;
          continue;
        }
        // Suspend first: if the issuer cannot be reached the card stays due and the next run tries again.
        if (card.status === 'normal' && !card.fee_suspended) await this.transition(card, 'SUSPENDED');
        await markFeeUnpaid(db, card.id);
        suspended++;
      } catch (err) {
        this.ctx.log.warn({ card: card.id, err: String(err) }, 'card annual fee: charge failed');
      }
    }
    await this.reinstatePaid();
    return { charged, suspended };
  }

  /** Lifts the fee suspension of a paid card (at the issuer too when the card is in use). */
  async reinstate(card: FeeCard): Promise<void> {
    if (!card.fee_suspended || card.next_charge_on === null) return;
    if (card.status === 'normal') await this.transition(card, 'ACTIVE');
    await setFeeSuspended(this.ctx.db, card.id, false);
  }

  /** Cards paid whose reinstatement at the issuer failed before: tried again on every run. */
  private async reinstatePaid(): Promise<void> {
    for (const { id } of await paidButSuspended(this.ctx.db)) {
      const card = await feeCard(this.ctx.db, id);
      if (card) await this.reinstate(card).catch(() => {});
    }
  }

  private async transition(card: FeeCard, state: 'ACTIVE' | 'SUSPENDED'): Promise<void> {
    await this.ctx.issuer.transitionCard({
      card_token: card.issuer_token,
      state,
      channel: 'API',
      reason_code: REASON.issuer,
    });
  }
}
