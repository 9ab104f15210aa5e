import {
  CARD_ERRORS,
  CARD_PIN_SHOW_SECONDS,
  type CardPinReveal,
  type CardPinRevealInput,
  ERRORS,
} from '@exchange/shared';
import { dateOf } from '../../clock.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { decrypt } from '../identity/crypto.ts';
import { consumeTotp } from '../identity/totp.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import { refusalFor } from './actions.ts';
import type { RequestMeta } from './cards.ts';
import { type CardContext, viaIssuer } from './context.ts';
import { recentFailures } from './member-repository.ts';
import type { CardRow } from './repository.ts';

/**
 * Wrong (or replayed) authenticator codes for a PIN an account may send within `windowMinutes` before the
 * reveal is refused: with the per-minute route limit, guessing a 6-digit code stays hopeless.
 */
export const PIN_REVEAL_POLICY = { maxFailures: 5, windowMinutes: 15 } as const;

/** The activity every reveal leaves (its outcome, the card's last four digits; never the PIN). */
const ACTION = 'card_pin_reveal';

/**
 * Password Retrieval (docs/cards.md#screens), done as issuers do it: the PIN is fetched from the issuer (Marqeta's
 * control token, then `pins/reveal`) only after a fresh authenticator code, and handed to the signed-in user's
 * screen in the answer. It is never sent by SMS or mail, logged, or stored: the outbox, the log and the
 * database never see it.
 */
export class CardPin {
  constructor(
    private readonly ctx: CardContext,
    private readonly resolve: (user: UserRecord, reference: string) => Promise<CardRow>,
  ) {}

  /**
   * `POST /account/password/retrieval`: one of the user's own active cards, and a TOTP code not used before
   * (two-factor must be on: 403 `resource.otp.not_enabled`). One user's reveals run one at a time, so the
   * failure count cannot be outrun by parallel guesses.
   */
  async reveal(user: UserRecord, input: CardPinRevealInput, meta: RequestMeta): Promise<CardPinReveal> {
    return this.ctx.mutex.run(`pin:${user.id}`, async () => {
      const card = await this.resolve(user, input.card_number);
      if (card.status !== 'normal') throw refusalFor(card, 'pin');
      if (card.next_charge_on === null || card.fee_suspended) throw invalid(CARD_ERRORS.cardNotActive);
      if (!user.otp || !user.otp_secret_enc) throw new AppError(403, [ERRORS.otpNotEnabled]);
      if ((await this.recentFailures(user)) >= PIN_REVEAL_POLICY.maxFailures)
        throw new AppError(429, [CARD_ERRORS.pinTooManyAttempts]);
      const check = await consumeTotp(
        this.ctx,
        user.id,
        decrypt(this.ctx.keys, user.otp_secret_enc),
        input.otp,
      );
      const last4 = { card: `**** ${card.last4}` };
      if (check !== 'ok') {
        await this.record(user, meta, 'failed', last4);
        throw invalid(check === 'used' ? ERRORS.totpUsed : ERRORS.totpInvalid);
      }
      const pin = await viaIssuer(this.ctx, (issuer) => issuer.revealPin(card.issuer_token));
      await this.record(user, meta, 'succeed', last4);
      return { pin, expires_in: CARD_PIN_SHOW_SECONDS };
    });
  }

  private recentFailures(user: UserRecord): Promise<number> {
    return recentFailures(
      this.ctx.db,
      user.id,
      ACTION,
      PIN_REVEAL_POLICY.windowMinutes,
      dateOf(this.ctx.clock),
    );
  }

  private record(user: UserRecord, meta: RequestMeta, result: 'succeed' | 'failed', data: unknown) {
    return recordActivity(this.ctx.db, {
      userId: user.id,
      action: ACTION,
      result,
      topic: 'card',
      // On the app's clock, as the failures are counted.
      at: dateOf(this.ctx.clock),
      ip: meta.ip,
      userAgent: meta.userAgent,
      data,
    });
  }
}
