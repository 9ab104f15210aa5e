import type pg from 'pg';
import type { ChangeFeed } from '../db/change-feed.ts';

/** What a {@link DueWorker} does and how it learns of work. */
export interface DueWorkerOptions {
  /** The pool the work uses: a pass is not started once it is closing. */
  db: pg.Pool;
  /** Names the work in log lines, e.g. `kyc simulator`. */
  name: string;
  /** Does the work that is due now. */
  pass(): Promise<void>;
  /**
   * Milliseconds until the earliest work falls due (zero or less: due already), or null when none is known. Asked
   * after each pass while the feed is heard.
   */
  nextDueMs(): Promise<number | null>;
  /**
   * Announces work queued or scheduled by any process (the payload `announcement`). While it is heard the worker
   * sleeps until the earliest due work; without it, or while it is not heard, it looks every `pollMs`.
   */
  feed?: ChangeFeed;
  announcement: string;
  /** How often due work is looked for when no feed is heard, and while due work waits (default 1 s). */
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/** The longest sleep while the feed is heard: a safety net, should a notification ever be missed. */
export const IDLE_RECHECK_MS = 30_000;
/** Slept past a due time, so that the database's clock has passed it too. */
const DUE_MARGIN_MS = 20;

/**
 * Runs queued work from PostgreSQL when it falls due: one pass at a time, another at once when kicked during a
 * pass, and between passes asleep until the earliest due work or until the change feed announces new work, so
 * an idle queue costs the database nothing. It holds no connection between passes, so a pool being closed never
 * waits for it.
 */
export class DueWorker {
  private timer: NodeJS.Timeout | undefined;
  /** The length of the sleep armed after the last pass (see {@link sleptMs}). */
  private armedMs: number | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private subscribed = false;

  constructor(private readonly options: DueWorkerOptions) {}

  /** Starts: a pass now, then whenever work falls due or is announced. */
  start(): void {
    this.stopped = false;
    const { feed, announcement } = this.options;
    if (feed && !this.subscribed) {
      this.subscribed = true;
      feed.subscribe((payload) => {
        if (payload === announcement) this.kick();
      });
      // Whatever was announced while the feed was not heard is looked for once it is heard again.
      feed.onReset(() => this.kick());
    }
    this.kick();
  }

  /** Stops and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }

  /** Runs one pass now (or right after the current one). */
  kick(): void {
    if (this.stopped || this.poolEnding()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.options
      .pass()
      .catch((err) => {
        // A pool being closed under a pass (shutdown) is not worth a warning.
        if (!this.poolEnding())
          this.options.log?.warn({ err: String(err) }, `${this.options.name}: pass failed`);
      })
      .then(() => (this.again ? undefined : this.sleepMs()))
      .then((sleep) => {
        this.running = undefined;
        // Kicked while this pass ran (or while it looked up its sleep): another pass at once.
        if (this.again || sleep === undefined) {
          this.again = false;
          this.kick();
        } else if (!this.stopped) {
          this.armedMs = sleep;
          this.timer = setTimeout(() => this.kick(), sleep);
          this.timer.unref();
        }
      });
  }

  /** True once stopped: a pass of many items ends early. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Waits until no pass is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * How long the worker chose to sleep after its last pass, in ms (tests): whether it waits for due work or a
   * notification, or polls, is seen at once instead of by watching it for a while.
   */
  get sleptMs(): number | undefined {
    return this.armedMs;
  }

  /**
   * How long to sleep before the next pass. While the feed is heard: until the earliest due work, at most
   * {@link IDLE_RECHECK_MS}. `pollMs` while it is not heard, and while work already due is still waiting (the
   * other side not ready yet).
   */
  private async sleepMs(): Promise<number> {
    const poll = this.options.pollMs ?? 1000;
    if (!this.options.feed?.live || this.stopped || this.poolEnding()) return poll;
    try {
      const until = await this.options.nextDueMs();
      if (until === null) return IDLE_RECHECK_MS;
      return until > 0 ? Math.min(IDLE_RECHECK_MS, Math.ceil(until) + DUE_MARGIN_MS) : poll;
    } catch {
      return poll;
    }
  }

  private poolEnding(): boolean {
    return (this.options.db as { ending?: boolean }).ending === true;
  }
}
