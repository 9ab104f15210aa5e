import type { NatsConnection, Subscription } from 'nats';
import type pg from 'pg';
import { DatabaseUnavailableError } from '../../db/errors.ts';
import { PROJECTED_SUBJECT } from './subjects.ts';

/** How often the tables' position is read while a reader waits (in case an announcement was missed). */
const POLL_MS = 25;
/** How long a read waits for the tables before it is refused (503, retry): the core is down or far behind. */
const WAIT_LIMIT_MS = 5_000;

interface Waiter {
  target: number;
  resolve(): void;
  reject(err: Error): void;
  deadline: number;
}

/**
 * How far the active core's projector has written the tables, as an api or ws process learns it: the core
 * announces each write on NATS, and while a reader waits the position is also read from `core_projection` (an
 * announcement may be lost). A read waits until the tables hold every batch this process has applied and every
 * command it was answered for, so what it reads is never older than what its client was told.
 */
export class ProjectionWatch {
  private known = 0;
  private acked = 0;
  private waiters: Waiter[] = [];
  private polling: NodeJS.Timeout | undefined;
  private readonly subscription: Subscription;

  constructor(
    private readonly db: pg.Pool,
    nc: NatsConnection,
  ) {
    this.subscription = nc.subscribe(PROJECTED_SUBJECT);
    void this.listen();
  }

  /** A command sent from this process was committed in batch `seq`. */
  acknowledged(seq: number): void {
    if (seq > this.acked) this.acked = seq;
  }

  /** Resolves once the tables hold batch `applied` and every batch this process was answered for. */
  reach(applied: number): Promise<void> {
    const target = Math.max(applied, this.acked);
    if (this.known >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ target, resolve, reject, deadline: Date.now() + WAIT_LIMIT_MS });
      this.poll();
    });
  }

  /** Stops listening; readers still waiting are refused. */
  stop(): void {
    this.subscription.unsubscribe();
    clearTimeout(this.polling);
    this.settle(Number.POSITIVE_INFINITY, new DatabaseUnavailableError('the process is stopping'));
  }

  private async listen(): Promise<void> {
    for await (const message of this.subscription) {
      const seq = Number(new TextDecoder().decode(message.data));
      if (Number.isSafeInteger(seq)) this.advance(seq);
    }
  }

  private advance(seq: number): void {
    if (seq <= this.known) return;
    this.known = seq;
    this.settle(seq);
  }

  /** Answers the waiters whose target is reached (or every waiter, with `err`, up to `seq`). */
  private settle(seq: number, err?: Error): void {
    const now = Date.now();
    const left: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.target <= seq) err ? w.reject(err) : w.resolve();
      else if (now >= w.deadline)
        w.reject(new DatabaseUnavailableError('the tables are behind the exchange core; try again'));
      else left.push(w);
    }
    this.waiters = left;
  }

  private poll(): void {
    if (this.polling || this.waiters.length === 0) return;
    this.polling = setTimeout(async () => {
      try {
        const row = (
          await this.db.query<{ projected_seq: string }>(
            'select projected_seq from core_projection where id = 1',
          )
        ).rows[0]!;
        this.advance(Number(row.projected_seq));
      } catch {
        // The database is away: the deadline refuses the waiters.
      }
      this.settle(this.known);
      this.polling = undefined;
      this.poll();
    }, POLL_MS);
  }
}
