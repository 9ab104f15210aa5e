import type { Command, CommandResult, Engine } from '@exchange/engine';
import type pg from 'pg';
import type { Tx } from '../db/pool.ts';
import { type BatchEffects, type BatchSql, executeBatch, prepareBatch, type Units } from './persistence.ts';

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
  sql: BatchSql;
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
 *
 * Batches flow through three stages: prepared (applied to the engine, SQL built), inserting (BEGIN and its inserts
 * of new rows, in an open transaction) and finishing (its other statements, then COMMIT and the WAL flush). One
 * batch at most is in each, so the next batch's inserts run while the previous one finishes, on the other core.
 * A batch's other statements change rows the previous batch may have written (balances, orders), so they wait
 * until that batch is durable and see its rows. A batch sends its COMMIT only after the previous batch's commit
 * succeeded, so commits land in batch order and a failed commit stops the core before the batch after it can
 * commit. The next batch starts inserting only once this one has run its inserts and the one before it is
 * durable, so at most two transactions are open; the later one only inserts rows nobody else writes until the
 * earlier one is durable, so neither waits for the other's locks and they cannot deadlock.
 */
export class Sequencer {
  private queue: Pending[] = [];
  /** The next batch, applied and prepared, waiting for the inserting slot. */
  private prepared: PreparedBatch | undefined;
  /** The batch whose inserts are running (or waiting for the batch before it to be durable). */
  private writing: PreparedBatch | undefined;
  /** The last batch that started writing, until durable: resolves once it is, rejects if it failed. */
  private committing: Promise<void> | undefined;
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
   * Cuts the next batch when the prepared slot is free: at once when `maxBatch` commands wait, else after
   * `maxDelayMs` so that a burst of arrivals shares one batch.
   */
  private schedule(): void {
    if (this.failure || this.prepared || this.queue.length === 0) return;
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

  /** Applies the next batch to the engine and prepares its SQL; starts writing it when the slot is free. */
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
    this.prepared = { seq, batch, results, sql: prepareBatch(this.units, effects) };
    this.writeNext();
  }

  /** Moves the prepared batch into the writing slot, if free, and cuts the one after it. */
  private writeNext(): void {
    const next = this.prepared;
    if (!next || this.writing || this.failure) return;
    this.prepared = undefined;
    this.writing = next;
    void this.write(next);
    this.schedule();
  }

  /**
   * Writes one batch in its own transaction: its inserts, then (once the previous batch's commit is durable) its
   * other statements and COMMIT; only once that is durable answers its callers and publishes it.
   */
  private async write(next: PreparedBatch): Promise<void> {
    let client: Tx | undefined;
    let committed!: () => void;
    let failed!: (err: Error) => void;
    const durable = new Promise<void>((resolve, reject) => {
      committed = resolve;
      failed = reject;
    });
    durable.catch(() => {});
    const previous = this.committing;
    this.committing = durable;
    try {
      client = await this.db.connect();
      // Queued together: the inserts go out as soon as BEGIN is answered, without a turn of the event loop.
      await Promise.all([client.query('begin'), executeBatch(client, next.sql.inserts)]);
      await previous;
      this.writing = undefined;
      this.writeNext();
      await executeBatch(client, next.sql.rest);
      await client.query('commit');
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      failed(error);
      await client?.query('rollback').catch(() => {});
      client?.release(true);
      this.fail(error, next.batch);
      return;
    }
    client.release();
    this.committedSeq = next.seq;
    if (this.committing === durable) this.committing = undefined;
    committed();
    for (const [i, pending] of next.batch.entries()) pending.resolve(next.results[i] as CommandResult);
    for (const listener of this.listeners) listener({ seq: next.seq, results: next.results });
  }

  /** Stops the core: every command not yet committed (in any stage) is refused. Only the first failure counts. */
  private fail(err: Error, batch: Pending[]): void {
    if (this.failure) {
      for (const pending of batch) pending.reject(this.failure);
      return;
    }
    this.failure = new Error(`exchange core stopped: ${err.message}`);
    clearTimeout(this.timer);
    const waiting = [batch, this.prepared?.batch ?? [], this.queue.splice(0)];
    this.prepared = undefined;
    for (const pending of waiting.flat()) pending.reject(this.failure);
    this.onFatal(this.failure);
  }

  /** Resolves when everything submitted so far has been committed (or the core has failed). */
  async drain(): Promise<void> {
    while ((this.queue.length > 0 || this.prepared || this.writing || this.committing) && !this.failure) {
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
