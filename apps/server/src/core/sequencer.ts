import type { Command, CommandResult, Engine } from '@exchange/engine';
import type pg from 'pg';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../db/errors.ts';
import type { Tx } from '../db/pool.ts';
import { changesMarkets, followMarkets, unstorableMarketCommand } from './market-rows.ts';
import { type BatchEffects, type BatchSql, executeBatch, prepareBatch, type Units } from './persistence.ts';

/** A command as callers submit it: the sequencer stamps the time. */
export type Submitted = Command extends infer C ? (C extends Command ? Omit<C, 'at'> : never) : never;

/** Committed results of one batch, in order, for publishing (websocket streams, tickers, ...). */
export interface CommittedBatch {
  seq: number;
  results: CommandResult[];
  /** The commands as applied (stamped with their time), for replicas that apply them again. */
  commands: Command[];
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
  /** The time to stamp instead of the batch's (a dated history being replayed). */
  at?: number;
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

/** How one batch went, for metrics: its size and the time from the start of its write to its durable commit. */
export interface BatchTiming {
  commands: number;
  commitMs: number;
}

/** Reads the engine back from the database, as a fresh start does: balances, open orders, last batch number. */
export type EngineLoader = () => Promise<{ engine: Engine; batchSeq: number; term: number }>;

/**
 * Told when the core has reloaded itself, before it takes commands again; `missed` when a batch committed whose
 * answer was lost with the connection (it was never published). The core waits for a returned promise.
 */
export type RecoveredListener = (info: { seq: number; missed: boolean }) => void | Promise<void>;

/** Waits between attempts to reload from a database that is still down, growing to this bound. */
const RELOAD_BACKOFF_MS = [100, 250, 500, 1000, 2000];

/**
 * The only writer of the engine. Commands are applied in arrival order in batches; each batch's effects are
 * written in one PostgreSQL transaction, and only after the commit are callers answered and events published.
 * If a commit fails the core stops: memory is never allowed to run ahead of what is on disk. When it failed because
 * the database went away (and a loader was given), it pauses instead: what was not committed is refused as
 * "database unavailable", and once every write in flight has settled it reloads its state from the database, as a
 * fresh start does, and takes commands again. Any other failure is fatal (`onFatal`).
 *
 * Batches flow through two stages: prepared (applied to the engine, SQL built) and writing (sent, committed, the WAL
 * flushed). One batch at most is in each, so the next batch is applied and encoded while the previous one is
 * written. A batch is written only once the one before it is durable: its rows (balances, orders) are then the
 * newest, commits land in batch order, and a failed commit stops the core before the batch after it is sent. A batch
 * is one statement in its own transaction (see `BatchSql`): one round trip, on a connection the sequencer keeps
 * while batches follow one another and gives back to the pool when none waits.
 */
export class Sequencer {
  private queue: Pending[] = [];
  /** The next batch, applied and prepared, waiting for the writing slot. */
  private prepared: PreparedBatch | undefined;
  /** The batch being written, until it is durable (or failed). */
  private writing: PreparedBatch | undefined;
  /** The connection batches are written on while they follow one another (none while the core is idle). */
  private connection: Tx | undefined;
  /** Number of the last batch applied to the engine (committed or not). */
  private appliedSeq: number;
  /** Number of the last committed batch (also in `engine_state.batch_seq`). */
  committedSeq: number;
  /** The core's term (`engine_state.core_term`): every batch is fenced by it. */
  private term: number;
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  /** Every batch write still running, so a reload waits until none can still commit. */
  private readonly writes = new Set<Promise<void>>();
  private readonly recoveredListeners: RecoveredListener[] = [];
  private readonly inFlight = new Map<string, Promise<CommandResult>>();
  private readonly listeners: ((batch: CommittedBatch) => void)[] = [];
  private readonly timings: ((batch: BatchTiming) => void)[] = [];
  private readonly options: SequencerOptions;

  constructor(
    private engine: Engine,
    private readonly db: pg.Pool,
    private readonly units: Units,
    batchSeq: number,
    term: number,
    options: Partial<SequencerOptions> = {},
    private readonly onFatal: (err: Error) => void = () => {},
    private readonly reload?: EngineLoader,
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.appliedSeq = batchSeq;
    this.committedSeq = batchSeq;
    this.term = term;
  }

  /** The engine, for reads (depth, balances); never apply commands to it directly. */
  get state(): Engine {
    return this.engine;
  }

  /** The term this core commits under (raised by each core that takes the lease). */
  get coreTerm(): number {
    return this.term;
  }

  /** False while the core is paused (database lost, reload pending) or stopped: commands are refused. */
  get available(): boolean {
    return this.failure === undefined;
  }

  /** Commands waiting for a batch (a metric). */
  get queueDepth(): number {
    return this.queue.length;
  }

  /** Subscribes to each batch's size and commit time (metrics). */
  onTimed(listener: (batch: BatchTiming) => void): void {
    this.timings.push(listener);
  }

  /** Subscribes to committed batches. */
  onCommitted(listener: (batch: CommittedBatch) => void): void {
    this.listeners.push(listener);
  }

  /** Subscribes to reloads from the database after a lost connection. */
  onRecovered(listener: RecoveredListener): void {
    this.recoveredListeners.push(listener);
  }

  /**
   * Submits a command and resolves with its result once durably committed. With a `ref` (a client command id),
   * a repeat takes no effect and gets the first outcome (`ok`, `code`, `orderId`; no events).
   */
  submit(command: Submitted, ref?: string, options: { firstSend?: boolean } = {}): Promise<CommandResult> {
    if (this.failure) return Promise.reject(this.failure);
    if (ref === undefined) return this.enqueue(command, undefined);
    const existing = this.inFlight.get(ref);
    if (existing) return existing;
    // `firstSend`: a fresh id on its first delivery (NATS delivers a request at most once) cannot have been
    // committed before, so the lookup is skipped; its retries look it up.
    const promise = options.firstSend
      ? this.enqueue(command, ref)
      : this.findCommitted(ref).then((found) => found ?? this.enqueue(command, ref));
    this.inFlight.set(ref, promise);
    promise.finally(() => this.inFlight.delete(ref)).catch(() => {});
    return promise;
  }

  /**
   * Submits a command stamped with `at` (epoch milliseconds) instead of its batch's time, for replaying a dated
   * history through the core (the demo markets' past trades). Never for client commands: their time is the core's.
   */
  submitDated(command: Submitted, at: number): Promise<CommandResult> {
    if (!Number.isSafeInteger(at)) return Promise.reject(new Error(`not a time: ${at}`));
    return this.enqueue(command, undefined, at);
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

  private enqueue(command: Submitted, ref: string | undefined, at?: number): Promise<CommandResult> {
    // The core may have paused while a client command id was being looked up: nothing would cut this batch.
    if (this.failure) return Promise.reject(this.failure);
    const unstorable = changesMarkets(command as Command)
      ? unstorableMarketCommand(command as Command)
      : null;
    if (unstorable) return Promise.reject(new Error(`refused before the engine: ${unstorable}`));
    return new Promise((resolve, reject) => {
      this.queue.push({
        command: { ...command, at: 0, ...(ref ? { ref } : {}) } as Command,
        ref,
        ...(at === undefined ? {} : { at }),
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
    const effects: BatchEffects = { seq, term: this.term, results: [] };
    const results: CommandResult[] = [];
    const at = this.options.now();
    for (const pending of batch) {
      pending.command.at = pending.at ?? at;
      const result = this.engine.apply(pending.command);
      results.push(result);
      // A market added or changed here is known before the next command's rows are formatted.
      const market = changesMarkets(pending.command);
      if (market) followMarkets(this.units, result);
      effects.results.push({
        result,
        ref: pending.ref,
        withdrawal: withdrawalEffect(pending.command),
        market,
      });
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
    const writing = this.write(next);
    this.writes.add(writing);
    void writing.finally(() => this.writes.delete(writing));
    this.schedule();
  }

  /**
   * Writes one batch in its own transaction; only once it is durable answers its callers, publishes it and starts
   * writing the next one.
   */
  private async write(next: PreparedBatch): Promise<void> {
    const started = performance.now();
    let client = this.connection;
    try {
      client ??= await this.db.connect();
      this.connection = client;
      const { statements } = next.sql;
      if (statements.length === 1) await executeBatch(client, statements);
      else {
        // Queued together: each statement goes out as soon as the one before it is answered.
        await Promise.all([client.query('begin'), executeBatch(client, statements)]);
        await client.query('commit');
      }
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.connection = undefined;
      await client?.query('rollback').catch(() => {});
      client?.release(true);
      this.writing = undefined;
      this.fail(error, next.batch);
      return;
    }
    this.committedSeq = next.seq;
    this.writing = undefined;
    const timing = { commands: next.batch.length, commitMs: performance.now() - started };
    try {
      // The next batch goes out first (what arrived during this write), so that PostgreSQL works on it while this
      // one is answered and published; this one is answered whatever becomes of the next.
      if (this.prepared) this.writeNext();
      else this.prepareNext();
    } finally {
      for (const listener of this.timings) listener(timing);
      for (const [i, pending] of next.batch.entries()) pending.resolve(next.results[i] as CommandResult);
      const commands = next.batch.map((p) => p.command);
      for (const listener of this.listeners) listener({ seq: next.seq, results: next.results, commands });
    }
    if (!this.writing && this.connection === client) {
      this.connection = undefined;
      client.release();
    }
  }

  /**
   * Stops the core: every command not yet committed (in any stage) is refused. Only the first failure counts.
   * A lost database pauses it until {@link recover} has reloaded it; anything else stops it for good.
   */
  private fail(err: Error, batch: Pending[]): void {
    if (this.failure) {
      for (const pending of batch) pending.reject(this.failure);
      return;
    }
    const lost = this.reload !== undefined && isDatabaseUnavailable(err);
    this.failure = lost
      ? new DatabaseUnavailableError(`exchange core paused, database unavailable: ${err.message}`, {
          cause: err,
        })
      : new Error(`exchange core stopped: ${err.message}`);
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = [batch, this.prepared?.batch ?? [], this.queue.splice(0)];
    this.prepared = undefined;
    for (const pending of waiting.flat()) pending.reject(this.failure);
    if (lost) void this.recover();
    else this.onFatal(this.failure);
  }

  /**
   * Rebuilds the engine from the database once it answers again. It first waits for every write in flight: a batch
   * before the failed one may still commit, and the reload must see it. The engine in memory may hold batches that
   * never committed, so it is thrown away rather than trusted. A batch whose COMMIT landed but whose answer was
   * lost is in the reloaded state (its callers were refused; retries with the same client id get its outcome),
   * and listeners are told it was `missed` so views built from published batches can resync.
   */
  private async recover(): Promise<void> {
    await Promise.allSettled([...this.writes]);
    const published = this.committedSeq;
    for (let attempt = 0; ; attempt++) {
      try {
        const { engine, batchSeq, term } = await (this.reload as EngineLoader)();
        const info = { seq: batchSeq, missed: batchSeq !== published };
        // Still paused: no batch can be published while the listeners read the database.
        for (const listener of this.recoveredListeners) await listener(info);
        this.engine = engine;
        this.term = term;
        this.appliedSeq = batchSeq;
        this.committedSeq = batchSeq;
        this.writing = undefined;
        this.failure = undefined;
        return;
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        if (!isDatabaseUnavailable(error)) {
          this.failure = new Error(
            `exchange core stopped: reloading from the database failed: ${error.message}`,
          );
          this.onFatal(this.failure);
          return;
        }
        const wait = RELOAD_BACKOFF_MS[Math.min(attempt, RELOAD_BACKOFF_MS.length - 1)] as number;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** Resolves when everything submitted so far has been committed (or the core has failed). */
  async drain(): Promise<void> {
    while ((this.queue.length > 0 || this.prepared || this.writing) && !this.failure) {
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
