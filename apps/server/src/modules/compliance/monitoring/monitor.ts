import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../../clock.ts';
import type { Config } from '../../../config.ts';
import type { Core } from '../../../core/index.ts';
import { Repeating } from '../../../jobs/repeating.ts';
import { customerWindow, newOperations, openAlert, recordOperation } from './repository.ts';
import { assessRisk } from './risk.ts';
import { evaluate } from './rules.ts';
import { decimalRate, eurCents, eurRate } from './valuation.ts';

/** How far back a pass looks for operations it has not valued (a restart after a long stop still catches up). */
const HORIZON_HOURS = 72;
/** Decimals of the amounts as read (`trim_scale`d numeric, at most 18). */
const AMOUNT_DECIMALS = 18;

/** What the monitor reads its settings from. */
export interface MonitorSettings {
  intervalMs: number;
  linkedWindowDays: number;
  highRiskCountries: readonly string[];
  /** WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: the rapid in-and-out window (0: the rule is off). */
  passThroughMinutes: number;
  /** CARD_EUR_PER_USDT: EUR per USDT when no market trades USDT against EUR. */
  eurPerUsdt: string;
}

export interface MonitorDeps {
  db: pg.Pool;
  core: Core;
  /** The app's clock (clock.ts): customers' risk is reassessed on it. */
  clock: Clock;
  settings: MonitorSettings;
  log: { warn(message: string): void };
}

/**
 * Transaction monitoring as a scheduled scan rather than hooks in each write path: the five kinds of operation are
 * recorded by five modules (and their crash-recovery paths), and a scan over their tables sees every committed row
 * whichever path wrote it, without adding work or failure modes to a customer's request. Each operation is valued
 * in EUR once, at the pass after it commits (seconds later at the default interval), then the rules run; an alert
 * is unique per operation and rule, so a repeated pass opens nothing twice.
 */
export class TransactionMonitor {
  private readonly repeating: Repeating;
  private readonly highRisk: ReadonlySet<string>;

  constructor(private readonly deps: MonitorDeps) {
    this.highRisk = new Set(deps.settings.highRiskCountries.map((c) => c.toUpperCase()));
    this.repeating = new Repeating(
      deps.settings.intervalMs,
      () => this.scan(),
      (err) => deps.log.warn(`transaction monitoring pass failed: ${String(err)}`),
    );
  }

  start(): void {
    if (this.deps.settings.intervalMs > 0) this.repeating.start(true);
  }

  stop(): void {
    this.repeating.stop();
  }

  /** One pass: values and checks every operation not seen yet. Returns the number of alerts opened. */
  async scan(): Promise<number> {
    const { db, core, settings } = this.deps;
    await core.sequencer.settled();
    const perUsdt = decimalRate(settings.eurPerUsdt);
    let opened = 0;
    const touched = new Set<number>();
    for (;;) {
      const batch = await newOperations(db, HORIZON_HOURS);
      if (batch.length === 0) return opened;
      for (const op of batch) {
        // The amount column's own 18 decimals: exact whatever the currency's precision.
        const rate = core.units.precisions.has(op.currency) ? eurRate(core, op.currency, perUsdt) : null;
        const cents = rate ? eurCents(toUnits(op.amount, AMOUNT_DECIMALS), AMOUNT_DECIMALS, rate) : null;
        const id = await recordOperation(db, op, cents);
        if (id === null) continue;
        const window = await customerWindow(
          db,
          id,
          op.userId,
          op.occurredAt,
          settings.linkedWindowDays,
          settings.passThroughMinutes,
        );
        const hits = evaluate(
          { id, kind: op.kind, eurCents: cents, counterpartyCountry: op.counterpartyCountry },
          { ...window, highRiskCountries: this.highRisk },
        );
        for (const hit of hits) if (await openAlert(db, op.userId, id, hit)) opened += 1;
        touched.add(op.userId);
      }
      // The behaviour part of each customer's risk class follows their alerts.
      for (const user of touched)
        await assessRisk(db, user, settings.highRiskCountries, dateOf(this.deps.clock));
      touched.clear();
      if (batch.length < 500) return opened;
    }
  }
}

/** The monitor of an app, from its configuration. */
export function transactionMonitor(s: {
  db: pg.Pool;
  core: Core;
  clock: Clock;
  config: Config;
  log: { warn(message: string): void };
}): TransactionMonitor {
  return new TransactionMonitor({
    db: s.db,
    core: s.core,
    clock: s.clock,
    log: s.log,
    settings: {
      ...s.config.aml,
      passThroughMinutes: s.config.withdrawReview.passThroughMinutes,
      eurPerUsdt: s.config.card.fees.eurPerUsdt,
    },
  });
}
