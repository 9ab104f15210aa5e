import { randomBytes } from 'node:crypto';
import {
  CARD_ERRORS,
  type CardCharge,
  type CardCostInput,
  type CardData,
  type CardListItem,
  type CardReveal,
  MAX_CARDS_PER_USER,
  type ShippingAddress,
} from '@exchange/shared';
import type { IssuerCard } from '../../adapters/card-issuer/port.ts';
import { REASON } from '../../adapters/card-issuer/port.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { decrypt, encrypt } from '../identity/crypto.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import { type CardContext, panHash, viaIssuer } from './context.ts';
import { CardFeeCharger } from './fees.ts';
import { cardData, cardListItem, expiryDate, maskedNumber } from './presenters.ts';
import {
  type CardRow,
  completeOrder,
  countCardSlots,
  dropReservation,
  findCard,
  findCardByPanHash,
  findCardsByMask,
  findHolder,
  listCards,
  listCharges,
  moveCard,
  reserveCardSlot,
  staleOrders,
} from './repository.ts';
import type { CardTopups } from './topups.ts';

/** Who asked, for the security log. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
}

/**
 * A user's cards: ordering and paying them, the list and the wallet, revealing the number to its owner, and
 * activation. Every card is looked up among the session user's own cards: anyone else's is simply not found.
 */
export class CardService {
  readonly fees: CardFeeCharger;
  /** Set by the suite: the card wallet's balance and today's top-ups. */
  topups: CardTopups | undefined;

  constructor(private readonly ctx: CardContext) {
    this.fees = new CardFeeCharger(ctx);
  }

  /** `GET /account/cards`. */
  async list(user: UserRecord): Promise<CardListItem[]> {
    return (await listCards(this.ctx.db, user.id)).map(cardListItem);
  }

  /**
   * The user's card named by `reference`: its full number, or the masked number the list shows
   * (`5300 **** **** 1234`); 404 `record.not_found` for anything else, including another user's card.
   */
  async resolve(user: UserRecord, reference: string): Promise<CardRow> {
    const compact = reference.replace(/[\s-]/g, '');
    let card: CardRow | undefined;
    if (/^\d{16}$/.test(compact)) {
      card = await findCardByPanHash(this.ctx.db, user.id, panHash(this.ctx.keys, compact));
    } else {
      const masked = /^(\d{4})\*{8}(\d{4})$/.exec(compact);
      if (masked) [card] = await findCardsByMask(this.ctx.db, user.id, masked[1]!, masked[2]!);
    }
    if (!card) throw notFound();
    return card;
  }

  /** `GET /account/card_details`. Balances are zero until top-ups exist. */
  async details(user: UserRecord, reference: string): Promise<CardData> {
    const card = await this.resolve(user, reference);
    return cardData(card, await this.topups?.wallet(card));
  }

  /** `GET /account/cards/reveal`: the full number, to its owner only; every reveal is in the security log. */
  async reveal(user: UserRecord, reference: string, meta: RequestMeta): Promise<CardReveal> {
    const card = await this.resolve(user, reference);
    if (!card.pan_enc) throw notFound();
    await recordActivity(this.ctx.db, {
      userId: user.id,
      action: 'card_reveal',
      result: 'succeed',
      topic: 'card',
      ip: meta.ip,
      userAgent: meta.userAgent,
      data: { card: maskedNumber(card) },
    });
    return { card_number: decrypt(this.ctx.keys, card.pan_enc), expiry_date: expiryDate(card.expiry) };
  }

  /**
   * `POST /account/card_cost`. Without `card_number`: orders a new card at the issuer, shipped to the address,
   * then charges the activation and first annual fee; a refused charge leaves the card unpaid (a Pay button).
   * With it: pays that unpaid card (the first fees, or an annual fee that was due), reinstating it if the unpaid
   * fee had suspended it. The balance is checked before anything is ordered or charged.
   */
  async cost(user: UserRecord, input: CardCostInput): Promise<CardListItem> {
    const holder = await findHolder(this.ctx.db, user.id);
    if (holder?.status !== 'activation_successful') throw invalid(CARD_ERRORS.holderNotApproved);
    if (user.level < 3) throw new AppError(403, [CARD_ERRORS.levelRequired]);
    return this.ctx.mutex.run(user.id, async () => {
      if (input.card_number !== undefined) return this.pay(user, input.card_number);
      return this.order(user, holder.issuer_user_token, holder, input.shipping_address);
    });
  }

  private async pay(user: UserRecord, reference: string): Promise<CardListItem> {
    const card = await this.resolve(user, reference);
    if (card.next_charge_on !== null) throw invalid(CARD_ERRORS.alreadyPaid);
    if (this.fees.available(user.id) < this.fees.total(card))
      throw invalid(CARD_ERRORS.feeBalanceInsufficient);
    if ((await this.fees.charge(card)) === 'refused') throw invalid(CARD_ERRORS.feeBalanceInsufficient);
    const paid = (await findCard(this.ctx.db, user.id, card.id)) as CardRow;
    await this.fees
      .reinstate(paid)
      .catch((err) =>
        this.ctx.log.warn({ card: card.id, err: String(err) }, 'card: reinstating after payment failed'),
      );
    return cardListItem((await findCard(this.ctx.db, user.id, card.id)) as CardRow);
  }

  private async order(
    user: UserRecord,
    userToken: string,
    holder: { first_name: string; last_name: string },
    shipping: ShippingAddress,
  ): Promise<CardListItem> {
    const { db } = this.ctx;
    await this.reconcileStaleOrders(user.id);
    if ((await countCardSlots(db, user.id)) >= MAX_CARDS_PER_USER) throw invalid(CARD_ERRORS.maxCards);
    if (this.fees.available(user.id) < this.fees.total({ paid_periods: 0 }))
      throw invalid(CARD_ERRORS.feeBalanceInsufficient);
    const token = `card_${randomBytes(12).toString('hex')}`;
    const id = await reserveCardSlot(db, user.id, token, shipping, MAX_CARDS_PER_USER);
    if (!id) throw invalid(CARD_ERRORS.maxCards);
    let issued: IssuerCard;
    try {
      issued = await viaIssuer(this.ctx, async (issuer) => {
        const created = await issuer.createCard({
          token,
          user_token: userToken,
          fulfillment: {
            shipping: {
              recipient_address: {
                first_name: holder.first_name,
                last_name: holder.last_name,
                address1: shipping.address,
                city: shipping.city,
                postal_code: shipping.post_code,
                country: shipping.country,
              },
            },
          },
        });
        return created.pan ? created : ((await issuer.getCard(token, true)) ?? created);
      });
      if (!issued.pan || !/^\d{16}$/.test(issued.pan))
        throw new AppError(502, [CARD_ERRORS.issuerUnavailable]);
    } catch (err) {
      await dropReservation(db, id);
      throw err;
    }
    await completeOrder(db, id, sealCard(this.ctx, issued.pan, issued.expiration));
    const card = (await findCard(db, user.id, id)) as CardRow;
    await this.fees.charge(card);
    return cardListItem((await findCard(db, user.id, id)) as CardRow);
  }

  /**
   * A slot taken for an order whose answer never came back (the process stopped during the issuer call): after
   * ten minutes the issuer is asked; a card it made becomes the user's (unpaid), otherwise the slot is freed.
   */
  private async reconcileStaleOrders(userId: string): Promise<void> {
    for (const row of await staleOrders(this.ctx.db, userId)) {
      const card = await viaIssuer(this.ctx, (issuer) => issuer.getCard(row.issuer_token, true));
      if (card?.pan) await completeOrder(this.ctx.db, row.id, sealCard(this.ctx, card.pan, card.expiration));
      else await dropReservation(this.ctx.db, row.id);
    }
  }

  /**
   * `POST /account/card_activate`: the full number printed on the card must be one of the user's cards, paid
   * and not yet active; it becomes ACTIVE at the issuer and `normal` here.
   */
  async activate(user: UserRecord, pan: string): Promise<CardListItem> {
    return this.ctx.mutex.run(user.id, async () => {
      const card = await findCardByPanHash(this.ctx.db, user.id, panHash(this.ctx.keys, pan));
      if (!card) throw invalid(CARD_ERRORS.cardNumberInvalid);
      if (card.status !== 'unverified') throw invalid(CARD_ERRORS.alreadyActive);
      if (card.next_charge_on === null) throw invalid(CARD_ERRORS.feeUnpaid);
      await viaIssuer(this.ctx, (issuer) =>
        issuer.transitionCard({
          card_token: card.issuer_token,
          state: 'ACTIVE',
          channel: 'API',
          reason_code: REASON.firstActivation,
        }),
      );
      const moved = await moveCard(this.ctx.db, card.id, ['unverified'], 'normal');
      if (!moved) throw invalid(CARD_ERRORS.alreadyActive);
      return cardListItem(moved);
    });
  }

  /** `GET /account/card_charges`: one card's fees, newest first. */
  async charges(
    user: UserRecord,
    reference: string,
    page: number,
    limit: number,
  ): Promise<{ total: number; items: CardCharge[] }> {
    const card = await this.resolve(user, reference);
    const { total, rows } = await listCharges(this.ctx.db, card.id, page, limit);
    return {
      total,
      items: rows.map((r) => ({
        card_number: maskedNumber(card),
        created_at: r.created_at.toISOString(),
        fee_type: r.fee_type,
        currency: r.currency,
        fee: r.fee,
        fee_deduction_date: r.fee_deduction_date,
      })),
    };
  }
}

/** A card's number sealed with the server key, its keyed hash, the digits lists show, and its expiry. */
export function sealCard(ctx: CardContext, pan: string, expiration: string) {
  return {
    panEnc: encrypt(ctx.keys, pan),
    panHash: panHash(ctx.keys, pan),
    first4: pan.slice(0, 4),
    last4: pan.slice(-4),
    expiry: expiration,
  };
}
