import type pg from 'pg';
import { Repeating } from '../../jobs/repeating.ts';
import { purgeOutbox } from './outbox.ts';

/** How often the outbox retention runs: hourly is plenty for a limit counted in days. */
export const OUTBOX_RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The outbox retention job (a background job, so one process at a time runs it): deletes records of messages
 * older than `MAIL_RETENTION_DAYS` and drops any secret nobody read within the hour, at the start and then
 * every {@link OUTBOX_RETENTION_INTERVAL_MS}.
 */
export class OutboxRetention {
  private readonly repeating: Repeating;
  private running: Promise<number> | undefined;
  private started = false;

  constructor(
    private readonly db: pg.Pool,
    private readonly retentionDays: number,
    log: { warn(message: string): void },
    intervalMs = OUTBOX_RETENTION_INTERVAL_MS,
  ) {
    this.repeating = new Repeating(
      intervalMs,
      () => this.run(),
      (err) => log.warn(`outbox retention failed: ${String(err)}`),
    );
  }

  /** Runs now, then on every interval until {@link stop}. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.repeating.start(true);
  }

  /** One purge now (a run under way is joined, not repeated); how many messages were deleted. */
  run(): Promise<number> {
    this.running ??= purgeOutbox(this.db, this.retentionDays).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.repeating.stop();
    await this.running?.catch(() => {});
  }
}
