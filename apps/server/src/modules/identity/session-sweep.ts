import type pg from 'pg';
import { type Clock, dateOf, systemClock } from '../../clock.ts';
import { Repeating, runEnded } from '../../jobs/repeating.ts';
import { sweepEndedSessions } from './sessions-repository.ts';

/** How often idle and expired sessions are recorded as ended: the idle timeout moves in minute steps anyway. */
export const SESSION_SWEEP_INTERVAL_MS = 60_000;
/** Sessions recorded per statement; a run repeats until fewer are left. */
const BATCH = 500;

/**
 * A background job (one process at a time runs it): sessions that went idle or passed their lifetime get their
 * end recorded (`session.end`, reason `idle` or `expired`, in the owner's security log). They were refused from
 * that moment already (every lookup checks both); this only writes down that they ended, once.
 */
export class SessionSweep {
  private readonly repeating: Repeating;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: pg.Pool,
    private readonly idleMinutes: number,
    log: { warn(message: string): void },
    intervalMs = SESSION_SWEEP_INTERVAL_MS,
    /** The app's clock (clock.ts): a session's end is measured on it. */
    private readonly clock: Clock = systemClock,
  ) {
    this.repeating = new Repeating(
      intervalMs,
      () => this.run(),
      (err) => log.warn(`session sweep failed: ${String(err)}`),
    );
  }

  /** Runs now, then on every interval until {@link stop}. */
  start(): void {
    this.repeating.start(true);
  }

  /** One sweep now (a sweep under way is joined); how many sessions it recorded. */
  run(): Promise<number> {
    this.running ??= this.sweep().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await sweepEndedSessions(
        this.db,
        { idleMinutes: this.idleMinutes, now: dateOf(this.clock) },
        BATCH,
      );
      total += n;
      if (n < BATCH) return total;
    }
  }

  async stop(): Promise<void> {
    this.repeating.stop();
    await runEnded(this.running);
  }
}
