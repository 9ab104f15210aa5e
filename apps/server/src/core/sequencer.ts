import type { Command, CommandResult, Engine } from '@exchange/engine';
import type pg from 'pg';
import { withTransaction } from '../db/pool.ts';
import { type BatchEffects, executeBatch, prepareBatch, type Statement, type Units } from './persistence.ts';

/** A command as callers submit it: the sequencer stamps the time. */
export type Submitted = Command extends infer C ? (C extends Command ? Omit<C, 'at'> : never) : never;

/** Committed results of one batch, in order, for publishing (websocket streams, tickers, ...). */
export interface CommittedBatch {
  seq: number;
  results: CommandResult[];
}

interface PreparedBatch {
  seq: number;
  batch: Pending[];
  results: CommandResult[];
  statements: Statement[];
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
  /** A transaction is in progress. */
  private committing = false;
  /** The next batch, applied and prepared, waiting for the commit slot. */
  private prepared: PreparedBatch | undefined;
  /** Number of the last batch applied to the engine (committed or not). */
  private appliedSeq: number;
  /** Number of the last committed batch (also in `engine_state.batch_seq`). */
  committedSeq: number;
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  private readonly inFlight = new Map<string, Promise<CommandResult>>();
  private readonly listeners: ((batch: CommittedBatch) => void)[] = [];
  private readonly options: SequencerOptions;

  constructor(
    private readonly engine: Engine,
    private readonly db: pg.Pool,
    private readonly units: Units,
    batchSeq: number,
    options: Partial<SequencerOptions> = {},
    private readonly onFatal: (err: Error) => void = () => {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.appliedSeq = batchSeq;
    this.committedSeq = batchSeq;
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

  /**
   * Cuts the next batch. With nothing committing: after `maxDelayMs`, or at once when `maxBatch` commands wait.
   * While a batch commits, the next one is applied and prepared only when full, so that CPU work (engine, SQL
   * parameters) overlaps the commit under load without splitting light traffic into tiny batches.
   */
  private schedule(): void {
    if (this.failure || this.prepared || this.queue.length === 0) return;
    if (this.committing) {
      if (this.queue.length >= this.options.maxBatch) setImmediate(() => this.prepareNext());
      return;
    }
    if (this.queue.length >= this.options.maxBatch) {
      clearTimeout(this.timer);
      this.timer = undefined;
      setImmediate(() => this.prepareNext());
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.prepareNext();
      }, this.options.maxDelayMs);
    }
  }

  /** Applies the next batch to the engine and prepares its SQL; commits it when the commit slot is free. */
  private prepareNext(): void {
    if (this.failure || this.prepared || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.maxBatch);
    const seq = ++this.appliedSeq;
    const effects: BatchEffects = { seq, results: [] };
    const results: CommandResult[] = [];
    const at = this.options.now();
    for (const pending of batch) {
      pending.command.at = at;
      const result = this.engine.apply(pending.command);
      results.push(result);
      effects.results.push({ result, ref: pending.ref, withdrawal: withdrawalEffect(pending.command) });
    }
    this.prepared = { seq, batch, results, statements: prepareBatch(this.units, effects) };
    if (!this.committing) void this.commitNext();
  }

  /** Commits the prepared batch in one transaction; only then answers its callers and publishes it. */
  private async commitNext(): Promise<void> {
    const next = this.prepared;
    if (!next || this.committing || this.failure) return;
    this.prepared = undefined;
    this.committing = true;
    this.schedule();
    try {
      await withTransaction(this.db, (tx) => executeBatch(tx, next.statements));
    } catch (err) {
      const waiting = this.prepared as PreparedBatch | undefined;
      this.fail(err instanceof Error ? err : new Error(String(err)), [
        ...next.batch,
        ...(waiting?.batch ?? []),
      ]);
      return;
    }
    this.committedSeq = next.seq;
    this.committing = false;
    for (const [i, pending] of next.batch.entries()) pending.resolve(next.results[i] as CommandResult);
    for (const listener of this.listeners) listener({ seq: next.seq, results: next.results });
    if (this.prepared) void this.commitNext();
    else this.schedule();
  }

  private fail(err: Error, batch: Pending[]): void {
    this.failure = new Error(`exchange core stopped: ${err.message}`);
    for (const pending of [...batch, ...this.queue.splice(0)]) pending.reject(this.failure);
    this.onFatal(this.failure);
  }

  /** Resolves when everything submitted so far has been committed (or the core has failed). */
  async drain(): Promise<void> {
    while ((this.queue.length > 0 || this.committing || this.prepared) && !this.failure) {
      await new Promise((r) => setTimeout(r, 1));
    }
  }
}

function withdrawalEffect(c: Command): BatchEffects['results'][number]['withdrawal'] {
  if (c.type === 'HoldWithdrawal')
    return { kind: 'hold', id: c.withdrawalId, user: c.user, currency: c.currency, amount: c.amount };
  if (c.type === 'SettleWithdrawal') return { kind: 'settle', id: c.withdrawalId };
  if (c.type === 'ReleaseWithdrawal') return { kind: 'release', id: c.withdrawalId };
  return undefined;
}
