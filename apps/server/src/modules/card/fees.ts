import { formatUnits, toUnits } from '@exchange/shared';
import { REASON } from '../../adapters/card-issuer/port.ts';
import { withTransaction } from '../../db/pool.ts';
import { CARD_CURRENCY, type CardContext, utcToday } from './context.ts';
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
  async charge(card: CardRow, nextFrom?: string): Promise<'paid' | 'refused'> {
    const period = card.paid_periods;
    const ref = `card-fee:${card.id}:${period}:${card.fee_attempts}`;
    const lines = this.lines(card);
    const amount = lines.reduce((sum, l) => sum + l.units, 0n);
    const result =
      amount > 0n
        ? await this.ctx.core.sequencer.submit({ type: 'CardFee', user: Number(card.user_id), amount }, ref)
        : { ok: true };
    if (!result.ok) {
      await this.ctx.db.query(
        `update cards set fee_attempts = fee_attempts + 1, updated_at = now()
         where id = $1 and paid_periods = $2 and fee_attempts = $3`,
        [card.id, period, card.fee_attempts],
      );
      return 'refused';
    }
    const today = utcToday(this.ctx.clock);
    await withTransaction(this.ctx.db, async (tx) => {
      for (const line of lines) {
        await tx.query(
          `insert into card_charges (card_id, user_id, fee_type, period, currency, fee, command_ref, fee_deduction_date)
           values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (card_id, period, fee_type) do nothing`,
          [
            card.id,
            card.user_id,
            line.type,
            period,
            CARD_CURRENCY,
            formatUnits(line.units, this.precision),
            ref,
            today,
          ],
        );
      }
      await tx.query(
        `update cards set paid_periods = paid_periods + 1, fee_attempts = 0,
           next_charge_on = ($3::date + interval '1 year')::date, updated_at = now()
         where id = $1 and paid_periods = $2`,
        [card.id, period, nextFrom ?? today],
      );
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
    const due: CardRow[] = (
      await db.query(
        `select id from cards where next_charge_on <= $1::date and paid_periods > 0
           and status in ('unverified', 'normal', 'loss', 'Card replacement processing') order by next_charge_on, id limit 500`,
        [today],
      )
    ).rows;
    let charged = 0;
    let suspended = 0;
    for (const { id } of due) {
      const card = await this.load(id);
      if (!card?.next_charge_on || card.next_charge_on > today) continue;
      try {
        if ((await this.charge(card, card.next_charge_on)) === 'paid') {
          charged++;
          continue;
        }
        // Suspend first: if the issuer cannot be reached the card stays due and the next run tries again.
        if (card.status === 'normal' && !card.fee_suspended) await this.transition(card, 'SUSPENDED');
        await db.query(
          `update cards set next_charge_on = null, fee_suspended = true, updated_at = now() where id = $1`,
          [card.id],
        );
        suspended++;
      } catch (err) {
        this.ctx.log.warn({ card: card.id, err: String(err) }, 'card annual fee: charge failed');
      }
    }
    await this.reinstatePaid();
    return { charged, suspended };
  }

  /** Lifts the fee suspension of a paid card (at the issuer too when the card is in use). */
  async reinstate(card: CardRow): Promise<void> {
    if (!card.fee_suspended || card.next_charge_on === null) return;
    if (card.status === 'normal') await this.transition(card, 'ACTIVE');
    await setFeeSuspended(this.ctx.db, card.id, false);
  }

  /** Cards paid whose reinstatement at the issuer failed before: tried again on every run. */
  private async reinstatePaid(): Promise<void> {
    const rows = (
      await this.ctx.db.query(
        `select id from cards where fee_suspended and next_charge_on is not null
           and status in ('unverified', 'normal', 'loss', 'Card replacement processing') limit 100`,
      )
    ).rows;
    for (const { id } of rows) {
      const card = await this.load(id);
      if (card) await this.reinstate(card).catch(() => {});
    }
  }

  private async load(id: string): Promise<CardRow | undefined> {
    return (
      await this.ctx.db.query(
        `select id, user_id, issuer_token, status, fee_suspended, paid_periods, fee_attempts,
           to_char(next_charge_on, 'YYYY-MM-DD') as next_charge_on from cards where id = $1`,
        [id],
      )
    ).rows[0];
  }

  private async transition(card: CardRow, state: 'ACTIVE' | 'SUSPENDED'): Promise<void> {
    await this.ctx.issuer.transitionCard({
      card_token: card.issuer_token,
      state,
      channel: 'API',
      reason_code: REASON.issuer,
    });
  }
}
