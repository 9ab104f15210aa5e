import { z } from 'zod';
import { REASON } from '../../adapters/card-issuer/port.ts';
import { checkBasicAuth, verifyWebhook } from '../../adapters/card-issuer/signing.ts';
import { type Tx, withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import type { CardContext } from './context.ts';
import { kycDecision } from './holders.ts';
import { recordWebhookEvent, setHolderStatus, setWebhookOutcome } from './repository.ts';
import type { CardTopups } from './topups.ts';
import {
  cardForFulfilment,
  holderForDecision,
  moveCardBalance,
  promoteReplacement,
  setFulfilment,
} from './webhook-repository.ts';

/** Codes of a refused webhook (the issuer retries it; no user sees them). */
export const WEBHOOK_ERRORS = {
  unauthorized: 'account.card.webhook_unauthorized',
  invalidPayload: 'account.card.webhook_invalid_payload',
} as const;

const token = z.string().min(1).max(100);
const kycEvent = z.looseObject({
  token,
  user_token: token,
  result: z.looseObject({
    status: z.enum(['pending', 'success', 'failure']),
    codes: z.array(z.looseObject({ code: z.string(), message: z.string().optional() })).optional(),
  }),
});
const transitionEvent = z.looseObject({
  token,
  card_token: token,
  state: z.string().optional(),
  fulfillment_status: z.string().optional(),
  type: z.string().optional(),
});
const amount = z.string().regex(/^\d{1,12}(\.\d{1,6})?$/);
/** A card transaction: a top-up's `gpa.credit`, or a card network transaction (purchase, refund, ATM, fee). */
const transactionEvent = z.looseObject({
  token,
  type: z.string().min(1).max(64),
  state: z.string().min(1).max(32),
  card_token: token.optional(),
  amount: amount.optional(),
  gpa_order: z.looseObject({ token }).optional(),
});
/** Marqeta's event notification body, as far as it is read here (other event kinds are acknowledged). */
const notification = z.looseObject({
  kycs: z.array(kycEvent).max(500).optional(),
  cardtransitions: z.array(transitionEvent).max(500).optional(),
  transactions: z.array(transactionEvent).max(500).optional(),
});

/**
 * How a card network transaction moves the card's available balance (USDT), by Marqeta's transaction type:
 * an authorisation holds (−), its clearing changes nothing more, a reversal or refund gives back (+), an ATM
 * withdrawal or a fee takes (−), a replaced card's balance leaves it (−) for its replacement (+). Declined ones move nothing.
 */
const BALANCE_SIGN: Record<string, -1n | 0n | 1n> = {
  authorization: -1n,
  'authorization.clearing': 0n,
  'authorization.reversal': 1n,
  refund: 1n,
  'authorization.atm.withdrawal': -1n,
  'fee.charge': -1n,
  // A replaced card's balance moved by the issuer to its replacement (the money stays with the issuer).
  'transfer.card.out': -1n,
  'transfer.card.in': 1n,
};

const FULFILMENT_RANK = { ordered: 1, shipped: 2, delivered: 3 } as const;
type Fulfilment = keyof typeof FULFILMENT_RANK;

/** What happened to each event of a webhook. */
export interface WebhookOutcome {
  applied: number;
  duplicates: number;
  ignored: number;
}

/**
 * The issuer's webhooks: Basic credentials and `X-Marqeta-Signature` are checked before anything reads the
 * body (401 otherwise, nothing changed); each event is applied once, in one transaction with the record of
 * its token, so a redelivery is a no-op. Review decisions move the holder (the user is emailed on approval);
 * fulfilment moves the card, and the delivery of a replacement terminates the card it replaces.
 */
export class CardWebhooks {
  constructor(
    private readonly ctx: CardContext,
    private readonly topups: CardTopups,
  ) {}

  /**
   * True when a request carries the webhook's Basic credentials (constant time). The route checks this before
   * it reads a body, so a post without them costs no read; {@link handle} checks them again with the signature.
   */
  authorizes(headers: Record<string, unknown>): boolean {
    const { username, password } = this.ctx.webhook;
    return checkBasicAuth(headers.authorization, username, password);
  }

  async handle(rawBody: Buffer, headers: Record<string, unknown>): Promise<WebhookOutcome> {
    if (!verifyWebhook(this.ctx.webhook, rawBody, headers))
      throw new AppError(401, [WEBHOOK_ERRORS.unauthorized]);
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError(400, [WEBHOOK_ERRORS.invalidPayload]);
    }
    const body = notification.safeParse(parsed);
    if (!body.success) throw new AppError(400, [WEBHOOK_ERRORS.invalidPayload]);
    const outcome: WebhookOutcome = { applied: 0, duplicates: 0, ignored: 0 };
    const count = (o: string) => {
      if (o === 'applied') outcome.applied++;
      else if (o === 'duplicate') outcome.duplicates++;
      else outcome.ignored++;
    };
    for (const event of body.data.kycs ?? []) count(await this.kyc(event));
    for (const event of body.data.cardtransitions ?? []) count(await this.transition(event));
    for (const event of body.data.transactions ?? []) count(await this.transaction(event));
    return outcome;
  }

  /** A top-up settled or refused (`gpa.credit`), or a card network transaction moving the card balance. */
  private async transaction(event: z.infer<typeof transactionEvent>): Promise<string> {
    let refund: string | undefined;
    const outcome = await this.once(event.token, event.type, event, async (tx) => {
      if (event.type === 'gpa.credit') {
        const r = await this.topups.onFunding(tx, event);
        refund = r.refund;
        return r.outcome;
      }
      const sign = BALANCE_SIGN[event.type];
      if (sign === undefined || !event.amount || !event.card_token) return 'ignored';
      if (event.state !== 'PENDING' && event.state !== 'COMPLETION') return 'ignored';
      if (sign === 0n) return 'applied';
      return (await moveCardBalance(tx, event.card_token, event.amount, sign)) ? 'applied' : 'unknown';
    });
    // After the commit: the failed top-up is recorded, so a crash here leaves it to the card tick's recovery.
    if (refund) await this.topups.refund(refund).catch(() => {});
    return outcome;
  }

  private async kyc(event: z.infer<typeof kycEvent>): Promise<string> {
    let approvedEmail: string | null = null;
    const outcome = await this.once(event.token, 'kyc', event, async (tx) => {
      const holder = await holderForDecision(tx, event.user_token);
      if (!holder) return 'unknown';
      const decision = kycDecision(event.result);
      if (!decision) return 'ignored';
      // Only the decision on the check now under review counts; one about an earlier submission is stale.
      if (holder.status !== 'under_review' || holder.kyc_token !== event.token) return 'stale';
      await setHolderStatus(tx, holder.id, decision.status, {
        description: decision.description,
        from: ['under_review'],
      });
      if (decision.status === 'activation_successful') approvedEmail = holder.email;
      return 'applied';
    });
    if (approvedEmail) await this.mailApproval(approvedEmail);
    return outcome;
  }

  private async transition(event: z.infer<typeof transitionEvent>): Promise<string> {
    let terminate: string | null = null;
    const outcome = await this.once(event.token, event.type ?? 'cardtransition', event, async (tx) => {
      const card = await cardForFulfilment(tx, event.card_token);
      if (!card) return 'unknown';
      const next = fulfilmentOf(event);
      // State changes are ours (made through the API); only fulfilment moves a card here.
      if (!next || FULFILMENT_RANK[next] <= FULFILMENT_RANK[card.fulfillment ?? 'ordered']) return 'ignored';
      await setFulfilment(tx, card.id, next);
      if (next === 'delivered' && card.status === 'replacement_pending' && card.replaces_card_id)
        terminate = await promoteReplacement(tx, card);
      return 'applied';
    });
    if (terminate) {
      // The old card is gone here already; telling the issuer is retried by nobody, so a failure is logged.
      await this.ctx.issuer
        .transitionCard({
          card_token: terminate,
          state: 'TERMINATED',
          channel: 'API',
          reason_code: REASON.requested,
        })
        .catch((err) => this.ctx.log.warn({ err: String(err) }, 'card: terminating a replaced card failed'));
    }
    return outcome;
  }

  /** Applies an event in one transaction with the record of its token; `duplicate` when seen before. */
  private async once(
    eventToken: string,
    type: string,
    payload: unknown,
    apply: (tx: Tx) => Promise<string>,
  ): Promise<string> {
    return withTransaction(this.ctx.db, async (tx) => {
      if (!(await recordWebhookEvent(tx, { token: eventToken, type, payload }))) return 'duplicate';
      const outcome = await apply(tx);
      await setWebhookOutcome(tx, eventToken, outcome);
      return outcome;
    });
  }

  private async mailApproval(email: string): Promise<void> {
    await this.ctx.mail
      .send({
        to: email,
        template: 'card_approved',
        subject: 'Your card application is approved',
        text: 'Your identity was verified for the card. You can now order your card on the Card page: choose where to ship it and pay the activation and annual fee.',
      })
      .catch((err) => this.ctx.log.warn({ err: String(err) }, 'card: approval email failed'));
  }
}

/** The fulfilment an event reports: from its type (`fulfillment.shipped`) or its `fulfillment_status`. */
function fulfilmentOf(event: z.infer<typeof transitionEvent>): Fulfilment | null {
  const fromType = /^fulfillment\.(ordered|shipped|delivered)$/.exec(event.type ?? '')?.[1];
  const value = (fromType ?? event.fulfillment_status ?? '').toLowerCase();
  return value in FULFILMENT_RANK ? (value as Fulfilment) : null;
}
