import { randomBytes } from 'node:crypto';
import { CARD_ERRORS, type CardListItem } from '@exchange/shared';
import { REASON, type ReasonCode } from '../../adapters/card-issuer/port.ts';
import { AppError, invalid } from '../../http/errors.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { sealCard } from './cards.ts';
import { type CardContext, viaIssuer } from './context.ts';
import { cardListItem } from './presenters.ts';
import { type CardRow, findCard, findHolder, insertReplacement, moveCard } from './repository.ts';

/** The refusal for an action on a card in a state other than `normal`. */
export function refusalFor(card: CardRow, action: 'block' | 'unblock' | 'replace' | 'pin'): AppError {
  if (card.status === 'unverified') return invalid(CARD_ERRORS.cardNotActive);
  if (card.status === 'Card replacement processing') return invalid(CARD_ERRORS.replacementInProgress);
  if (card.status === 'loss')
    return invalid(action === 'block' ? CARD_ERRORS.alreadyBlocked : CARD_ERRORS.cardBlocked);
  return invalid(action === 'unblock' ? CARD_ERRORS.alreadyUnblocked : CARD_ERRORS.cardNotActive);
}

/**
 * The card actions menu (docs/cards.md#screens): Block/Report Lost Card, Unblock Card and Replace Card (Password
 * Retrieval is the PIN reveal, `pin.ts`). Each changes the card at the issuer first; a card whose unpaid fee keeps it suspended at the
 * issuer stays suspended there until paid.
 */
export class CardActions {
  constructor(
    private readonly ctx: CardContext,
    private readonly resolve: (user: UserRecord, reference: string) => Promise<CardRow>,
  ) {}

  /** `POST /account/report/card_loss`: normal → loss, SUSPENDED at the issuer. */
  async block(user: UserRecord, reference: string): Promise<CardListItem> {
    return this.ctx.mutex.run(user.id, async () => {
      const card = await this.resolve(user, reference);
      if (card.status !== 'normal') throw refusalFor(card, 'block');
      if (!card.fee_suspended) await this.transition(card, 'SUSPENDED', REASON.reportedLost);
      return this.moved(card, ['normal'], 'loss', 'block');
    });
  }

  /** `POST /account/remove/card_loss`: loss → normal, ACTIVE again at the issuer (unless its fee is unpaid). */
  async unblock(user: UserRecord, reference: string): Promise<CardListItem> {
    return this.ctx.mutex.run(user.id, async () => {
      const card = await this.resolve(user, reference);
      if (card.status === 'normal') throw invalid(CARD_ERRORS.alreadyUnblocked);
      if (card.status !== 'loss') throw refusalFor(card, 'unblock');
      if (!card.fee_suspended) await this.transition(card, 'ACTIVE', REASON.requested);
      return this.moved(card, ['loss'], 'normal', 'unblock');
    });
  }

  /**
   * `POST /account/replace_card`: a new card with a new number is issued from this one and shipped to the same
   * address; this card shows 'Card replacement processing' until the new one is delivered, when this one is
   * terminated and the new one appears (not active yet, paid to the same date).
   */
  async replace(user: UserRecord, reference: string): Promise<CardListItem> {
    return this.ctx.mutex.run(user.id, async () => {
      const card = await this.resolve(user, reference);
      if (card.status !== 'normal' && card.status !== 'loss') throw refusalFor(card, 'replace');
      if (card.next_charge_on === null) throw invalid(CARD_ERRORS.cardNotActive);
      const holder = await findHolder(this.ctx.db, user.id);
      // A card is only ever issued to a holder: none here is a broken database, not a request to refuse.
      if (!holder) throw new Error(`card ${card.id} has no card holder`);
      const claimed = await moveCard(this.ctx.db, card.id, [card.status], 'Card replacement processing');
      if (!claimed) throw invalid(CARD_ERRORS.replacementInProgress);
      const token = `card_${randomBytes(12).toString('hex')}`;
      try {
        const issued = await viaIssuer(this.ctx, async (issuer) => {
          const created = await issuer.createCard({
            token,
            user_token: holder.issuer_user_token,
            new_pan_from_card_token: card.issuer_token,
            fulfillment: {
              shipping: {
                recipient_address: {
                  first_name: holder.first_name,
                  last_name: holder.last_name,
                  address1: card.shipping.address,
                  city: card.shipping.city,
                  postal_code: card.shipping.post_code,
                  country: card.shipping.country,
                },
              },
            },
          });
          return created.pan ? created : ((await issuer.getCard(token, true)) ?? created);
        });
        if (!issued.pan) throw new AppError(502, [CARD_ERRORS.issuerUnavailable]);
        await insertReplacement(this.ctx.db, card, {
          issuerToken: token,
          ...sealCard(this.ctx, issued.pan, issued.expiration),
        });
      } catch (err) {
        await moveCard(this.ctx.db, card.id, ['Card replacement processing'], card.status);
        throw err;
      }
      return cardListItem(claimed);
    });
  }

  private async transition(card: CardRow, state: 'ACTIVE' | 'SUSPENDED', reason: ReasonCode): Promise<void> {
    await viaIssuer(this.ctx, (issuer) =>
      issuer.transitionCard({
        card_token: card.issuer_token,
        state,
        channel: 'API',
        reason_code: reason,
      }),
    );
  }

  private async moved(
    card: CardRow,
    from: CardRow['status'][],
    to: CardRow['status'],
    action: 'block' | 'unblock',
  ): Promise<CardListItem> {
    const moved = await moveCard(this.ctx.db, card.id, from, to);
    if (moved) return cardListItem(moved);
    // Changed meanwhile by another process: answer as the card now stands.
    const now = await findCard(this.ctx.db, card.user_id, card.id);
    throw now ? refusalFor(now, action) : invalid(CARD_ERRORS.cardNotActive);
  }
}
