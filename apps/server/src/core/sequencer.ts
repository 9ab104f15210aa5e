import type { Command, CommandResult, Engine } from '@exchange/engine';
import type pg from 'pg';
import { withTransaction } from '../db/pool.ts';
import { type BatchEffects, type Units, writeBatch } from './persistence.ts';

/** A command as callers submit it: the sequencer stamps the time. */
export type Submitted = Command extends infer C ? (C extends Command ? Omit<C, 'at'> : never) : never;

/** Committed results of one batch, in order, for publishing (websocket streams, tickers, ...). */
export interface CommittedBatch {
  seq: number;
  results: CommandResult[];
}

interface Pending {
  command: Command;
  ref: string | undefined;
  resolve(result: CommandResult): void;
  reject(err: Error): void;
}

/** How a batch is cut: at most `maxBatch` commands, waiting at most `maxDelayMs` for more to arrive. */
export interface SequencerOptions {
  maxBatch: number;
  maxDelayMs: number;
  now: () => number;
}

const DEFAULTS: SequencerOptions = { maxBatch: 5000, maxDelayMs: 1, now: Date.now };

/**
 * The only writer of the engine. Commands are applied in arrival order in batches; each batch's effects are
 * written in one PostgreSQL transaction, and only after the commit are callers answered and events published.
 * If a commit fails the core stops (crash-only): memory is never allowed to run ahead of what is on disk.
 */
export class Sequencer {
  private queue: Pending[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  private readonly inFlight = new Map<string, Promise<CommandResult>>();
  private readonly listeners: ((batch: CommittedBatch) => void)[] = [];
  private readonly options: SequencerOptions;

  constructor(
    private readonly engine: Engine,
    private readonly db: pg.Pool,
    private readonly units: Units,
    private batchSeq: number,
    options: Partial<SequencerOptions> = {},
    private readonly onFatal: (err: Error) => void = () => {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** The engine, for reads (depth, balances); never apply commands to it directly. */
  get state(): Engine {
    return this.engine;
  }

  /** Subscribes to committed batches. */
  onCommitted(listener: (batch: CommittedBatch) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Submits a command and resolves with its result once durably committed. With a `ref` (a client command id),
   * a repeat takes no effect and gets the first outcome (`ok`, `code`, `orderId`; no events).
   */
  submit(command: Submitted, ref?: string): Promise<CommandResult> {
    if (this.failure) return Promise.reject(this.failure);
    if (ref === undefined) return this.enqueue(command, undefined);
    const existing = this.inFlight.get(ref);
    if (existing) return existing;
    const promise = this.findCommitted(ref).then((found) => found ?? this.enqueue(command, ref));
    this.inFlight.set(ref, promise);
    promise.finally(() => this.inFlight.delete(ref)).catch(() => {});
    return promise;
  }

  private async findCommitted(ref: string): Promise<CommandResult | undefined> {
    const row = (await this.db.query('select ok, code, order_id from client_commands where ref = $1', [ref]))
      .rows[0];
    if (!row) return undefined;
    return {
      ok: row.ok,
      code: row.code,
      ref,
      events: [],
      postings: [],
      orders: [],
      orderId: row.order_id === null ? null : Number(row.order_id),
      swap: null,
    };
  }

  private enqueue(command: Submitted, ref: string | undefined): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        command: { ...command, at: 0, ...(ref ? { ref } : {}) } as Command,
        ref,
        resolve,
        reject,
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.writing || this.failure) return;
    if (this.queue.length >= this.options.maxBatch) {
      clearTimeout(this.timer);
      this.timer = undefined;
      setImmediate(() => void this.flush());
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.options.maxDelayMs);
    }
  }

  private async flush(): Promise<void> {
    if (this.writing || this.failure || this.queue.length === 0) return;
    this.writing = true;
    const batch = this.queue.splice(0, this.options.maxBatch);
    const seq = this.batchSeq + 1;
    const effects: BatchEffects = { seq, results: [] };
    const results: CommandResult[] = [];
    const at = this.options.now();
    for (const pending of batch) {
      pending.command.at = at;
      const result = this.engine.apply(pending.command);
      results.push(result);
      effects.results.push({ result, ref: pending.ref, withdrawal: withdrawalEffect(pending.command) });
    }
    try {
      await withTransaction(this.db, (tx) => writeBatch(tx, this.units, effects));
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)), batch);
      return;
    }
    this.batchSeq = seq;
    this.writing = false;
    for (const [i, pending] of batch.entries()) pending.resolve(results[i] as CommandResult);
    for (const listener of this.listeners) listener({ seq, results });
    if (this.queue.length > 0) this.schedule();
  }

  private fail(err: Error, batch: Pending[]): void {
    this.failure = new Error(`exchange core stopped: ${err.message}`);
    for (const pending of [...batch, ...this.queue.splice(0)]) pending.reject(this.failure);
    this.onFatal(this.failure);
  }

  /** Resolves when everything submitted so far has been committed (or the core has failed). */
  async drain(): Promise<void> {
    while ((this.queue.length > 0 || this.writing) && !this.failure)
      await new Promise((r) => setTimeout(r, 1));
  }
}

function withdrawalEffect(c: Command): BatchEffects['results'][number]['withdrawal'] {
  if (c.type === 'HoldWithdrawal')
    return { kind: 'hold', id: c.withdrawalId, user: c.user, currency: c.currency, amount: c.amount };
  if (c.type === 'SettleWithdrawal') return { kind: 'settle', id: c.withdrawalId };
  if (c.type === 'ReleaseWithdrawal') return { kind: 'release', id: c.withdrawalId };
  return undefined;
}
