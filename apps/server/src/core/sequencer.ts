import type { Command, Engine } from '@exchange/engine';
import type pg from 'pg';
import { DatabaseUnavailableError, isDatabaseUnavailable, retryWhileDatabaseDown } from '../db/errors.ts';
import type { Tx } from '../db/pool.ts';
import { type Pending, type PreparedBatch, prepareBatch, refusedBeforeEngine } from './batch-prepare.ts';
import { ClientCommands } from './client-commands.ts';
import { type JournalForm, journalForm } from './journal/codec.ts';
import { type Units, writeStatements } from './persistence.ts';
import type { JournalBatch } from './projection.ts';
import type { TablesProjector } from './projector.ts';
import { startProjector } from './projector-start.ts';
import { SequencerEvents } from './sequencer-events.ts';
import type {
  Acknowledgement,
  BatchTiming,
  CommittedResult,
  EngineLoader,
  LoadedCore,
  SequencerOptions,
  SubmitOptions,
  Submitted,
} from './sequencer-types.ts';
import { SEQUENCER_DEFAULTS } from './sequencer-types.ts';

// Callers import the sequencer's types from here as well.
export type * from './sequencer-types.ts';

/**
 * The only writer of the engine. Commands are applied in arrival order in batches; each batch is appended to the
 * command journal in one small statement (its own transaction), and only after that commit are callers answered
 * and events published. The journal is the source of truth: the tables (orders, trades, balances, the ledger) are
 * projections of it, written behind the core by its {@link Projector}. A caller chooses whether its answer waits
 * for the tables too ({@link Acknowledgement}).
 *
 * If a commit fails the core stops: memory is never allowed to run ahead of what is on disk. When it failed because
 * the database went away (and a loader was given), it pauses instead: what was not committed is refused as
 * "database unavailable", and once every write in flight has settled it reloads its state from the database (the
 * tables, then the journal after them), as a fresh start does, and takes commands again. Any other failure is
 * fatal (`onFatal`).
 *
 * Batches flow through two stages: prepared (applied to the engine, journal entry encoded) and writing (sent,
 * committed, the WAL flushed). One batch at most is in each, so the next batch is applied and encoded while the
 * previous one is written, and the journal's commits land in batch order.
 */
export class Sequencer extends SequencerEvents {
  private queue: Pending[] = [];
  /** The next batch, applied and prepared, waiting for the writing slot. */
  private prepared: PreparedBatch | undefined;
  /** The batch being written, until it is durable (or failed). */
  private writing: PreparedBatch | undefined;
  /** The connection batches are written on while they follow one another (none while the core is idle). */
  private connection: Tx | undefined;
  /** Number of the last batch applied to the engine (committed or not). */
  private appliedSeq: number;
  /** Number of the last batch in the journal (also `engine_state.batch_seq`). */
  committedSeq: number;
  /** The sequence number the next applied command gets. */
  private nextCommand: number;
  /** The core's term (`engine_state.core_term`): every batch is fenced by it. */
  private term: number;
  private projector: TablesProjector;
  /** Sends a committed batch to the projector (`written`: the journal's transaction wrote its tables too). */
  private feed: (batch: JournalBatch, written: boolean) => void = () => {};
  private loaded: LoadedCore;
  /** Client command ids: at most once each, a repeat answered with the first outcome. */
  private readonly clientCommands: ClientCommands;
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  /** Every batch write still running, so a reload waits until none can still commit. */
  private readonly writes = new Set<Promise<void>>();
  private readonly options: SequencerOptions;

  constructor(
    loaded: LoadedCore,
    private readonly db: pg.Pool,
    private readonly units: Units,
    options: Partial<SequencerOptions> = {},
    private readonly onFatal: (err: Error) => void = () => {},
    private readonly reload?: EngineLoader,
  ) {
    super();
    this.options = { ...SEQUENCER_DEFAULTS, ...options };
    this.engine = loaded.engine;
    this.appliedSeq = loaded.position.journalSeq;
    this.committedSeq = loaded.position.journalSeq;
    this.nextCommand = loaded.position.nextCommand;
    this.term = loaded.position.term;
    this.loaded = loaded;
    this.clientCommands = new ClientCommands(db, (seq) => this.projector.whenProjected(seq));
    this.projector = this.startProjector(loaded);
  }

  /**
   * Resolves when the core may take commands: the tables hold everything in the journal. A start whose replay
   * from a snapshot differed from the tables (see loadCore) is logged and counted here.
   */
  async ready(): Promise<void> {
    const { mismatch, position } = this.loaded;
    if (mismatch) {
      this.replayMismatches++;
      this.options.log.error(
        `core: the engine replayed from snapshot ${mismatch.snapshotSeq} and the journal differs from the tables at batch ${position.projectedSeq} (hash ${mismatch.replayed} against ${mismatch.tables}); continuing from the tables`,
      );
    }
    await this.settled();
  }

  /** Starts where the replay from a snapshot did not match the tables (see {@link ready}). */
  replayMismatches = 0;

  private engine: Engine;

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

  /** The last batch the tables hold. */
  get projectedSeq(): number {
    return this.projector.projectedSeq;
  }

  /** The projector of the journal into the tables (its lag, for metrics). */
  get tables(): TablesProjector {
    return this.projector;
  }

  /**
   * Resolves once the tables hold everything committed to the journal before this call: a read of the tables after
   * it sees every command answered before it (read your writes, and everyone else's).
   */
  settled(): Promise<void> {
    return this.projector.whenProjected(this.committedSeq);
  }

  /**
   * Submits a command and resolves with its result once durably committed (see {@link Acknowledgement}). With a
   * `ref` (a client command id), a repeat takes no effect and gets the first outcome (`ok`, `code`, `orderId`; no
   * events).
   */
  submit(command: Submitted, ref?: string, options: SubmitOptions = {}): Promise<CommittedResult> {
    if (this.failure) return Promise.reject(this.failure);
    const ack = options.ack ?? 'projected';
    if (ref === undefined) return this.enqueue(command, undefined, ack);
    return this.clientCommands.submit(ref, options.firstSend === true, ack, () =>
      this.enqueue(command, ref, ack),
    );
  }

  /**
   * Submits a command stamped with `at` (epoch milliseconds) instead of its batch's time, for replaying a dated
   * history through the core (the demo markets' past trades). Never for client commands: their time is the core's.
   */
  submitDated(command: Submitted, at: number): Promise<CommittedResult> {
    if (!Number.isSafeInteger(at)) return Promise.reject(new Error(`not a time: ${at}`));
    return this.enqueue(command, undefined, 'projected', at);
  }

  private enqueue(
    command: Submitted,
    ref: string | undefined,
    ack: Acknowledgement,
    at?: number,
  ): Promise<CommittedResult> {
    // The core may have paused while a client command id was being looked up: nothing would cut this batch.
    if (this.failure) return Promise.reject(this.failure);
    const stamped = { ...command, at: 0 } as Command;
    if (ref) stamped.ref = ref;
    const form = journalForm(stamped);
    const refused = refusedBeforeEngine(stamped, form);
    if (refused) return Promise.reject(new Error(refused));
    return new Promise((resolve, reject) => {
      this.queue.push({ command: stamped, form: form as JournalForm, ref, ack, at, resolve, reject });
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

  /** Applies the next batch to the engine and encodes its journal entry; starts writing it when the slot is free. */
  private prepareNext(): void {
    if (this.failure || this.prepared || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.maxBatch);
    const seq = ++this.appliedSeq;
    const firstCommand = this.nextCommand;
    this.nextCommand += batch.length;
    this.prepared = prepareBatch(
      this.engine,
      this.units,
      batch,
      { seq, firstCommand, term: this.term },
      this.options.now(),
      this.options.writeThrough,
    );
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
   * Writes one batch in its own transaction; only once it is durable answers its callers (or hands them to the
   * projector), publishes it and starts writing the next one.
   */
  private async write(next: PreparedBatch): Promise<void> {
    const started = performance.now();
    let client = this.connection;
    try {
      client ??= await this.db.connect();
      this.connection = client;
      await writeStatements(client, next.statements);
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
      this.committed(next, timing);
    }
    if (!this.writing && this.connection === client) {
      this.connection = undefined;
      client.release();
    }
  }

  /** A batch is in the journal: its callers are answered (or wait for the tables), its events go out. */
  private committed(next: PreparedBatch, timing: BatchTiming): void {
    const { seq, journal } = next;
    for (const listener of this.timings) listener(timing);
    this.clientCommands.recent.add(seq, next.batch, journal.results);
    this.feed(journal, this.options.writeThrough);
    let projected: Promise<void> | undefined;
    for (const [i, pending] of next.batch.entries()) {
      // The batch is marked on the engine's own result object (no copy per command).
      const result = journal.results[i] as CommittedResult;
      result.seq = seq;
      if (pending.ack === 'journal') pending.resolve(result);
      else {
        projected ??= this.projector.whenProjected(seq);
        projected.then(
          () => pending.resolve(result),
          (err: Error) => pending.reject(err),
        );
      }
    }
    for (const listener of this.committedListeners)
      listener({ seq, results: journal.results, commands: journal.commands, body: journal.body });
  }

  private startProjector(loaded: LoadedCore): TablesProjector {
    // The ids of the journal beyond the tables first: the projector writes them next.
    this.clientCommands.restart(loaded.tail);
    const { projector, feed } = startProjector(
      this.db,
      this.units,
      this.options,
      loaded,
      () => this.term,
      (err) => {
        this.fail(err, []);
        return this.failure ?? err;
      },
    );
    this.feed = feed;
    this.projector = projector;
    projector.onProgress((seq) => this.clientCommands.recent.projected(seq));
    for (const listener of this.projectorListeners) listener(projector);
    return projector;
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
    const stopped = this.projector.stop(this.failure);
    if (lost) void stopped.then(() => this.recover());
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
    const error = await retryWhileDatabaseDown(async () => {
      const loaded = await (this.reload as EngineLoader)();
      const seq = loaded.position.journalSeq;
      const info = { seq, missed: seq !== published };
      this.engine = loaded.engine;
      this.term = loaded.position.term;
      this.appliedSeq = seq;
      this.committedSeq = seq;
      this.nextCommand = loaded.position.nextCommand;
      this.writing = undefined;
      this.loaded = loaded;
      this.projector = this.startProjector(loaded);
      // The journal's tail goes into the tables first: the listeners read them. Still paused: no batch can be
      // committed or published meanwhile.
      await this.ready();
      for (const listener of this.recoveredListeners) await listener(info);
      this.failure = undefined;
    });
    if (error) {
      this.failure = new Error(`exchange core stopped: reloading from the database failed: ${error.message}`);
      this.onFatal(this.failure);
    }
  }

  /** Resolves once everything submitted is committed and projected into the tables, or the core failed. */
  async drain(): Promise<void> {
    while ((this.queue.length > 0 || this.prepared || this.writing) && !this.failure) {
      await new Promise((r) => setTimeout(r, 1));
    }
    if (!this.failure) await this.settled().catch(() => {});
  }

  /**
   * Stops the core for a shutdown: everything submitted is committed and projected, then the projector stops (its
   * thread leaving a snapshot of the tables, so that the next start has nothing to replay).
   */
  async close(): Promise<void> {
    await this.drain();
    await this.projector.stop(new Error('the exchange core stopped'));
  }
}
