import type pg from 'pg';
import type { Tx } from '../db/pool.ts';
import { BatchWaiters } from './batch-waiters.ts';
import { executeBatch, type Statement, type Units } from './persistence.ts';
import { type JournalBatch, projectionStatements } from './projection.ts';

/** How one projection went, for metrics: the batches and commands it wrote and how long its write took. */
export interface ProjectionTiming {
  batches: number;
  commands: number;
  writeMs: number;
}

/** What the core needs of its projector, on its own thread ({@link ProjectorThread}) or on the core's. */
export interface TablesProjector {
  readonly projectedSeq: number;
  readonly lagBatches: number;
  readonly lagCommands: number;
  onProgress(listener: (seq: number) => void): void;
  onTimed(listener: (timing: ProjectionTiming) => void): void;
  whenProjected(seq: number): Promise<void>;
  stop(err: Error): Promise<void>;
}

/**
 * Writes one projection's statements in one transaction on `client` (rolled back by the caller on failure).
 * `meanwhile` runs once the first statement is on its way, while PostgreSQL works on it.
 */
export async function writeProjection(
  client: Tx,
  statements: Statement[],
  meanwhile: () => void = () => {},
): Promise<void> {
  // One round trip opens the transaction (a simple query may hold two statements); node-postgres sends a
  // client's queries one after the other anyway, and deprecates queueing them.
  await client.query('begin; set local synchronous_commit = off');
  // An async function runs up to its first await at once: executeBatch has sent its first statement (the
  // combined one, nearly all the work) when it returns its promise.
  const written = executeBatch(client, statements);
  meanwhile();
  await written;
  await client.query('commit');
}

/** A unit built ahead: the first `take` pending batches' statements, which end at batch `to`. */
interface PreparedUnit {
  take: number;
  commands: number;
  to: number;
  statements: Statement[];
}

/** Most commands written in one projection transaction (a larger backlog is written in several). */
const MAX_COMMANDS = 20_000;

/**
 * Writes the tables from the journal's committed batches, behind the core: orders, trades, balances, the ledger,
 * holds, client command ids and market rows (see projectionStatements). It takes every batch that has committed
 * since its last write and writes them in one transaction, so the further it falls behind the larger and cheaper
 * its writes become. While PostgreSQL writes one transaction, the next one's statements are built from the batches
 * that arrived meanwhile (the JavaScript and the database work at once, on the machine's two processors). Each
 * write moves `core_projection.projected_seq` in the same transaction, from exactly where it
 * was, so a crash between the journal and the tables loses nothing (the start replays the journal after
 * `projected_seq`) and doubles nothing.
 *
 * Its commits are asynchronous (`synchronous_commit = off`): what a crash of PostgreSQL could lose of them is
 * projected again from the journal, whose commits are synchronous (and flush every earlier commit with them).
 */
export class Projector implements TablesProjector {
  private pending: JournalBatch[] = [];
  /** The unit after the one being written, built while it was written (see writeNext). */
  private prepared: PreparedUnit | undefined;
  /** How many units were built while the one before them was being written. */
  builtAhead = 0;
  private writing = false;
  private readonly waiters: BatchWaiters;
  private failure: Error | undefined;
  private readonly progress: ((seq: number) => void)[] = [];
  private readonly timings: ((timing: ProjectionTiming) => void)[] = [];
  private idle: Promise<void> = Promise.resolve();
  private settleIdle: () => void = () => {};

  constructor(
    private readonly db: pg.Pool,
    private readonly units: Units,
    private readonly term: () => number,
    projectedSeq: number,
    /**
     * Called once when a write fails: the core stops or pauses (it reloads from the tables and the journal), and
     * answers the error its callers get.
     */
    private readonly onFailure: (err: Error) => Error,
    /** Most commands in one projection transaction (tests make it small, to write a stream in many). */
    private readonly maxCommands = MAX_COMMANDS,
  ) {
    this.waiters = new BatchWaiters(projectedSeq);
  }

  /** The last batch the tables hold. */
  get projectedSeq(): number {
    return this.waiters.position;
  }

  /** Batches committed to the journal and not yet in the tables. */
  get lagBatches(): number {
    return this.pending.length;
  }

  /** Commands committed to the journal and not yet in the tables. */
  get lagCommands(): number {
    let n = 0;
    for (const b of this.pending) n += b.commands.length;
    return n;
  }

  /** Subscribes to the projected batch number after each write. */
  onProgress(listener: (seq: number) => void): void {
    this.progress.push(listener);
  }

  /** Subscribes to each write's size and time (metrics). */
  onTimed(listener: (timing: ProjectionTiming) => void): void {
    this.timings.push(listener);
  }

  /** Takes a batch committed to the journal (batches arrive in order, each once). */
  add(batch: JournalBatch): void {
    if (this.failure) return;
    this.pending.push(batch);
    this.kick();
  }

  /**
   * Notes that batch `seq` was written to the tables with the journal itself (write-through): nothing to project.
   * Only valid with nothing pending.
   */
  skip(seq: number): void {
    if (this.failure) return;
    if (this.pending.length > 0 || this.writing) throw new Error('a write-through batch while projecting');
    this.advance(seq);
    for (const listener of this.progress) listener(seq);
  }

  /** Resolves once the tables hold batch `seq` (at once if they do); rejects if the projector fails first. */
  whenProjected(seq: number): Promise<void> {
    return this.waiters.until(seq);
  }

  /** Stops: nothing more is written; resolves once the write in flight (if any) has settled. */
  stop(err: Error): Promise<void> {
    this.fail(err, false);
    return this.idle;
  }

  private kick(): void {
    if (this.writing || this.failure || this.pending.length === 0) return;
    this.writing = true;
    this.idle = new Promise((resolve) => {
      this.settleIdle = resolve;
    });
    void this.writeNext();
  }

  private async writeNext(): Promise<void> {
    while (this.pending.length > 0 && !this.failure) {
      let unit = this.prepared;
      this.prepared = undefined;
      const started = performance.now();
      try {
        unit ??= this.prepare(0, this.waiters.position);
        const { take, to } = unit;
        // While PostgreSQL writes this unit, the next one (the batches that arrived meanwhile) is built: the two
        // processors work at once. Its fence starts where this one ends; should this one fail, it is dropped.
        await this.write(unit.statements, () => {
          if (this.pending.length > take && !this.failure) {
            this.prepared = this.tryPrepare(take, to);
            if (this.prepared) this.builtAhead++;
          }
        });
      } catch (err) {
        this.prepared = undefined;
        this.fail(err instanceof Error ? err : new Error(String(err)), true);
        break;
      }
      this.pending.splice(0, unit.take);
      this.advance(unit.to);
      const timing = { batches: unit.take, commands: unit.commands, writeMs: performance.now() - started };
      for (const listener of this.timings) listener(timing);
      for (const listener of this.progress) listener(unit.to);
    }
    this.prepared = undefined;
    this.writing = false;
    this.settleIdle();
  }

  /**
   * The statements of the next unit: the pending batches from index `skip` on, up to `maxCommands` commands (at
   * least one batch), projected from batch `from`.
   */
  private prepare(skip: number, from: number): PreparedUnit {
    let take = 0;
    let commands = 0;
    while (skip + take < this.pending.length && (take === 0 || commands < this.maxCommands)) {
      commands += (this.pending[skip + take] as JournalBatch).commands.length;
      take++;
    }
    const batches = this.pending.slice(skip, skip + take);
    const to = (batches[batches.length - 1] as JournalBatch).seq;
    const statements = projectionStatements(this.units, batches, { from, to, term: this.term() });
    return { take, commands, to, statements };
  }

  /** {@link prepare} ahead of time: a failure is left to the next turn, which prepares it again and fails. */
  private tryPrepare(skip: number, from: number): PreparedUnit | undefined {
    try {
      return this.prepare(skip, from);
    } catch {
      return undefined;
    }
  }

  /** The tables hold everything up to `to` now: its waiters are answered. */
  private advance(to: number): void {
    this.waiters.reach(to);
  }

  private async write(statements: Statement[], meanwhile: () => void): Promise<void> {
    const client = await this.db.connect();
    let broken = false;
    try {
      await writeProjection(client as Tx, statements, meanwhile);
    } catch (err) {
      broken = true;
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release(broken);
    }
  }

  private fail(err: Error, report: boolean): void {
    if (this.failure) return;
    this.failure = err;
    this.pending = [];
    if (report) this.failure = this.onFailure(err);
    this.waiters.fail(this.failure);
  }
}
