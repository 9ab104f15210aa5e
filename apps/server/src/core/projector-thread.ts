import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError } from '../db/errors.ts';
import { PROJECTOR_MODULE } from '../paths.ts';
import { BatchWaiters } from './batch-waiters.ts';
import type { ProjectionTiming, TablesProjector } from './projector.ts';

/** The journal batch as the projector's thread gets it: its text, which its own engine applies. */
export interface ThreadBatch {
  seq: number;
  firstCommand: number;
  body: string;
  /** Written with the journal already (write-through): only the thread's engine follows it. */
  written?: boolean;
}

/** Messages to the projector's thread. */
export type ProjectorRequest = { type: 'batches'; batches: ThreadBatch[] } | { type: 'stop' };

/** Messages from the projector's thread. */
export type ProjectorUpdate =
  | { type: 'ready' }
  /** The batches of the last message are applied: the next may be sent. */
  | { type: 'took' }
  | ({ type: 'projected'; seq: number } & ProjectionTiming)
  | { type: 'failed'; message: string; unavailable: boolean }
  | { type: 'snapshot'; seq: number; hash: string; ms: number }
  | { type: 'snapshot-failed'; seq: number; message: string }
  | { type: 'stopped' };

/** What the projector's thread starts from. */
export interface ProjectorWorkerData {
  /** The database, as the app's pool reaches it. */
  url: string;
  projectedSeq: number;
  nextCommand: number;
  term: number;
  /** Store a snapshot of the tables' state as soon as it is loaded (the database has none yet). */
  snapshotOnStart: boolean;
  /** Take a snapshot after this many commands or this long, whichever comes first. */
  snapshotEvery: { commands: number; ms: number };
}

/** A worker written in TypeScript registers tsx first (worker-boot.mjs); the built bundle's is plain JavaScript. */
const BOOT = new URL('./worker-boot.mjs', import.meta.url);

/**
 * The projector of the journal into the tables, run on a thread of its own (projector-worker.ts): the core's
 * thread only sends it each committed batch's journal text, and hears back how far the tables are. Same contract
 * as the in-thread {@link Projector}: batches in order, `whenProjected`, progress and timing listeners, `stop`.
 */
export class ProjectorThread implements TablesProjector {
  private readonly worker: Worker;
  private added: number;
  private pendingCommands = 0;
  private failure: Error | undefined;
  private readonly waiters: BatchWaiters;
  private readonly progress: ((seq: number) => void)[] = [];
  private readonly timings: ((timing: ProjectionTiming) => void)[] = [];
  private readonly snapshots: ((info: { seq: number; hash: string; ms: number }) => void)[] = [];
  private readonly stopped: Promise<void>;
  /** Batches not sent yet: while the thread works on a message, the next ones wait here and go as one. */
  private outbox: ThreadBatch[] = [];
  private sending = false;
  /** Resolves once the thread has loaded the tables (it then takes batches). */
  readonly ready: Promise<void>;

  constructor(
    data: ProjectorWorkerData,
    /** Called once when the thread fails: the core stops or pauses, and answers the error its callers get. */
    private readonly onFailure: (err: Error) => Error,
    private readonly log: { warn(message: string): void } = console,
    /** The thread's module ({@link PROJECTOR_MODULE} unless the caller names another build of it). */
    module: URL = PROJECTOR_MODULE,
  ) {
    this.waiters = new BatchWaiters(data.projectedSeq);
    this.added = data.projectedSeq;
    this.worker = module.pathname.endsWith('.ts')
      ? new Worker(BOOT, { workerData: { ...data, entry: module.href } })
      : new Worker(module, { workerData: data });
    let ready!: () => void;
    let notReady!: (err: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      ready = resolve;
      notReady = reject;
    });
    this.ready.catch(() => {});
    let stopped!: () => void;
    this.stopped = new Promise((resolve) => {
      stopped = resolve;
    });
    this.worker.on('message', (update: ProjectorUpdate) => {
      if (update.type === 'ready') ready();
      else if (update.type === 'took') {
        this.sending = false;
        this.flush();
      } else if (update.type === 'projected') this.advance(update);
      else if (update.type === 'snapshot') for (const listener of this.snapshots) listener(update);
      else if (update.type === 'snapshot-failed')
        this.log.warn(`core: the snapshot after batch ${update.seq} was not stored: ${update.message}`);
      else if (update.type === 'failed') {
        const err = update.unavailable
          ? new DatabaseUnavailableError(update.message)
          : new Error(update.message);
        notReady(err);
        this.fail(err, true);
      } else if (update.type === 'stopped') stopped();
    });
    this.worker.on('error', (err) => {
      notReady(err);
      this.fail(err, true);
      stopped();
    });
    this.worker.on('exit', () => stopped());
    // The core's lifetime, not the thread's, keeps the process up. After the listeners: adding a 'message'
    // listener to a Worker refs its port again, so an unref before them would not hold.
    this.worker.unref();
  }

  /** The last batch the tables hold. */
  get projectedSeq(): number {
    return this.waiters.position;
  }

  /** Batches committed to the journal and not yet in the tables. */
  get lagBatches(): number {
    return this.added - this.waiters.position;
  }

  /** Commands committed to the journal and not yet in the tables. */
  get lagCommands(): number {
    return this.pendingCommands;
  }

  onProgress(listener: (seq: number) => void): void {
    this.progress.push(listener);
  }

  onTimed(listener: (timing: ProjectionTiming) => void): void {
    this.timings.push(listener);
  }

  /** Subscribes to each snapshot the thread stored. */
  onSnapshot(listener: (info: { seq: number; hash: string; ms: number }) => void): void {
    this.snapshots.push(listener);
  }

  /** Sends a batch committed to the journal (in order, each once). */
  add(batch: ThreadBatch, commands: number): void {
    if (this.failure) return;
    this.added = batch.seq;
    if (batch.written) {
      this.advance({ seq: batch.seq, batches: 1, commands: 0, writeMs: 0 });
    } else this.pendingCommands += commands;
    this.outbox.push(batch);
    this.flush();
  }

  /**
   * Sends what waits in one message, unless the thread has one in hand: under load, a message carries every batch
   * committed while the thread applied the last, so the core's thread wakes the other about once per projection
   * instead of once per batch.
   */
  private flush(): void {
    if (this.sending || this.outbox.length === 0 || this.failure) return;
    const batches = this.outbox;
    this.outbox = [];
    this.sending = true;
    this.worker.postMessage({ type: 'batches', batches } satisfies ProjectorRequest);
  }

  /** Resolves once the tables hold batch `seq` (at once if they do); rejects if the projector fails first. */
  whenProjected(seq: number): Promise<void> {
    return this.waiters.until(seq);
  }

  /** Stops the thread after the write in flight; resolves once it has ended. */
  async stop(err: Error): Promise<void> {
    this.fail(err, false);
    this.worker.postMessage({ type: 'stop' } satisfies ProjectorRequest);
    const ended = await Promise.race([
      this.stopped.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
    ]);
    if (!ended) await this.worker.terminate();
  }

  private advance(update: { seq: number } & ProjectionTiming): void {
    if (update.seq <= this.waiters.position) return;
    this.pendingCommands = Math.max(0, this.pendingCommands - update.commands);
    this.waiters.reach(update.seq);
    for (const listener of this.timings) listener(update);
    for (const listener of this.progress) listener(update.seq);
  }

  private fail(err: Error, report: boolean): void {
    if (this.failure) return;
    this.failure = report ? this.onFailure(err) : err;
    this.waiters.fail(this.failure);
  }
}
