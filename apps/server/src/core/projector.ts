import type pg from 'pg';
import type { Tx } from '../db/pool.ts';
import { BatchWaiters } from './batch-waiters.ts';
import { executeBatch, type Units } from './persistence.ts';
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

/** Most commands written in one projection transaction (a larger backlog is written in several). */
const MAX_COMMANDS = 20_000;

/**
 * Writes the tables from the journal's committed batches, behind the core: orders, trades, balances, the ledger,
 * holds, client command ids and market rows (see projectionStatements). It takes every batch that has committed
 * since its last write and writes them in one transaction, so the further it falls behind the larger and cheaper
 * its writes become. Each write moves `core_projection.projected_seq` in the same transaction, from exactly where it
 * was, so a crash between the journal and the tables loses nothing (the start replays the journal after
 * `projected_seq`) and doubles nothing.
 *
 * Its commits are asynchronous (`synchronous_commit = off`): what a crash of PostgreSQL could lose of them is
 * projected again from the journal, whose commits are synchronous (and flush every earlier commit with them).
 */
export class Projector implements TablesProjector {
  private pending: JournalBatch[] = [];
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
      let take = 0;
      let commands = 0;
      while (take < this.pending.length && (take === 0 || commands < MAX_COMMANDS)) {
        commands += (this.pending[take] as JournalBatch).commands.length;
        take++;
      }
      const batches = this.pending.slice(0, take);
      const to = (batches[batches.length - 1] as JournalBatch).seq;
      const started = performance.now();
      try {
        const statements = projectionStatements(this.units, batches, {
          from: this.waiters.position,
          to,
          term: this.term(),
        });
        await this.write(statements);
      } catch (err) {
        this.fail(err instanceof Error ? err : new Error(String(err)), true);
        break;
      }
      this.pending.splice(0, take);
      this.advance(to);
      const timing = { batches: take, commands, writeMs: performance.now() - started };
      for (const listener of this.timings) listener(timing);
      for (const listener of this.progress) listener(to);
    }
    this.writing = false;
    this.settleIdle();
  }

  /** The tables hold everything up to `to` now: its waiters are answered. */
  private advance(to: number): void {
    this.waiters.reach(to);
  }

  private async write(statements: ReturnType<typeof projectionStatements>): Promise<void> {
    const client = await this.db.connect();
    let broken = false;
    try {
      // One round trip opens the transaction (a simple query may hold two statements); node-postgres sends a
      // client's queries one after the other anyway, and deprecates queueing them.
      await client.query('begin; set local synchronous_commit = off');
      await executeBatch(client as Tx, statements);
      await client.query('commit');
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
