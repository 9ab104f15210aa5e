import type { CardFee } from '@exchange/shared';
import { formatUnits, toUnits } from '@exchange/shared';
import { LOCKS, withTryLock } from '../../db/locks.ts';
import { Repeating } from '../../jobs/repeating.ts';
import { CardActions } from './actions.ts';
import { CardService } from './cards.ts';
import { CARD_CURRENCY, type CardContext, KeyedMutex } from './context.ts';
import { CardHolders } from './holders.ts';
import { CardPin } from './pin.ts';
import { CardStatement } from './statement.ts';
import { CardTopups } from './topups.ts';
import { CardWebhooks } from './webhooks.ts';

export type { CardFees } from './context.ts';

/** Advisory lock of the annual fee run. */

/** The card suite, issuing half: holders, cards, their actions, the issuer's webhooks and the annual fee run. */
export class Cards {
  readonly holders: CardHolders;
  readonly cards: CardService;
  readonly actions: CardActions;
  /** Password Retrieval: the PIN on screen behind a fresh authenticator code. */
  readonly pin: CardPin;
  readonly webhooks: CardWebhooks;
  readonly topups: CardTopups;
  readonly statement: CardStatement;
  private readonly repeating: Repeating;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly ctx: Omit<CardContext, 'mutex'>,
    /** How often the annual fee run happens (ms); 0: only when {@link tick} is called. */
    private readonly pollMs = 0,
  ) {
    this.repeating = new Repeating(
      pollMs,
      () => this.tick(),
      (err) => this.ctx.log.warn({ err: String(err) }, 'card annual fee run failed'),
    );
    const full: CardContext = { ...ctx, mutex: new KeyedMutex() };
    this.holders = new CardHolders(full);
    this.cards = new CardService(full);
    this.actions = new CardActions(full, (user, reference) => this.cards.resolve(user, reference));
    this.pin = new CardPin(full, (user, reference) => this.cards.resolve(user, reference));
    this.topups = new CardTopups(full, (user, reference) => this.cards.resolve(user, reference));
    this.cards.topups = this.topups;
    this.statement = new CardStatement(full, (user, reference) => this.cards.resolve(user, reference));
    this.webhooks = new CardWebhooks(full, this.topups);
  }

  /** `GET /account/card_fee`: the fees and limits from the configuration, in USDT. */
  fee(): CardFee {
    const precision = this.ctx.core.units.precision(CARD_CURRENCY);
    const norm = (v: string) => formatUnits(toUnits(v, precision), precision);
    const f = this.ctx.fees;
    return {
      topup_fee: norm(f.topupFee),
      topup_limit: norm(f.topupLimit),
      load_limit: norm(f.loadLimit),
      activation_fee: norm(f.activationFee),
      annual_fee: norm(f.annualFee),
    };
  }

  /** Starts the annual fee run every `pollMs`. */
  start(): void {
    if (this.pollMs > 0) this.repeating.start();
  }

  /**
   * One card run now: the annual fees, then the top-ups a stopped process left unfinished (money through the
   * core, funding orders, refunds); waits for a run already under way instead of overlapping it.
   */
  async tick(today?: string): Promise<{ charged: number; suspended: number }> {
    const running = this.running as Promise<{ charged: number; suspended: number }> | undefined;
    if (running) return running;
    const run = this.exclusively(async () => {
      const fees = await this.cards.fees.chargeDue(today);
      await this.topups
        .recover()
        .catch((err) => this.ctx.log.warn({ err: String(err) }, 'card top-up recovery failed'));
      return fees;
    }).finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  /** Runs the annual fee run under a database lock, so that one process at a time does it (docs/operations.md#process-model). */
  private async exclusively(
    work: () => Promise<{ charged: number; suspended: number }>,
  ): Promise<{ charged: number; suspended: number }> {
    const outcome = await withTryLock(this.ctx.db, LOCKS.annualFee, work);
    return outcome.locked ? outcome.value : { charged: 0, suspended: 0 };
  }

  async stop(): Promise<void> {
    this.repeating.stop();
    await this.running?.catch(() => {});
  }
}
