import type { CardFee } from '@exchange/shared';
import { formatUnits, toUnits } from '@exchange/shared';
import { CardActions } from './actions.ts';
import { CardService } from './cards.ts';
import { CARD_CURRENCY, type CardContext, KeyedMutex } from './context.ts';
import { CardHolders } from './holders.ts';
import { CardWebhooks } from './webhooks.ts';

export type { CardFees } from './context.ts';

/** The card suite, issuing half: holders, cards, their actions, the issuer's webhooks and the annual fee run. */
export class Cards {
  readonly holders: CardHolders;
  readonly cards: CardService;
  readonly actions: CardActions;
  readonly webhooks: CardWebhooks;
  private loop: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: Omit<CardContext, 'mutex'>,
    /** How often the annual fee run happens (ms); 0: only when {@link tick} is called. */
    private readonly pollMs = 0,
  ) {
    const full: CardContext = { ...ctx, mutex: new KeyedMutex() };
    this.holders = new CardHolders(full);
    this.cards = new CardService(full);
    this.actions = new CardActions(full, (user, reference) => this.cards.resolve(user, reference));
    this.webhooks = new CardWebhooks(full);
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
    if (this.pollMs > 0) this.schedule();
  }

  /** One annual fee run now; waits for one already running instead of overlapping it. */
  async tick(today?: string): Promise<{ charged: number; suspended: number }> {
    const running = this.running as Promise<{ charged: number; suspended: number }> | undefined;
    if (running) return running;
    const run = this.cards.fees.chargeDue(today).finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.loop = setTimeout(() => {
      this.tick()
        .catch((err) => this.ctx.log.warn({ err: String(err) }, 'card annual fee run failed'))
        .finally(() => this.schedule());
    }, this.pollMs);
    this.loop.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.loop);
    await this.running?.catch(() => {});
  }
}
