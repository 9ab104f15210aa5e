import type pg from 'pg';
import { purgeOutbox } from './outbox.ts';

/** How often the outbox retention runs: hourly is plenty for a limit counted in days. */
export const OUTBOX_RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The outbox retention job (a background job, so one process at a time runs it): deletes records of messages
 * older than `MAIL_RETENTION_DAYS` and drops any secret nobody read within the hour, at the start and then
 * every {@link OUTBOX_RETENTION_INTERVAL_MS}.
 */
export class OutboxRetention {
  private loop: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly db: pg.Pool,
    private readonly retentionDays: number,
    private readonly log: { warn(message: string): void },
    private readonly intervalMs = OUTBOX_RETENTION_INTERVAL_MS,
  ) {}

  /** Runs now, then on every interval until {@link stop}. */
  start(): void {
    if (this.stopped || this.started) return;
    this.started = true;
    const runAndSchedule = () => {
      this.run()
        .catch((err) => this.log.warn(`outbox retention failed: ${String(err)}`))
        .finally(() => {
          if (this.stopped) return;
          this.loop = setTimeout(runAndSchedule, this.intervalMs);
          this.loop.unref();
        });
    };
    runAndSchedule();
  }

  /** One purge now (a run under way is joined, not repeated); how many messages were deleted. */
  run(): Promise<number> {
    this.running ??= purgeOutbox(this.db, this.retentionDays).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.loop);
    await this.running?.catch(() => {});
  }
}
