import { DueWorker, type DueWorkerOptions } from '@exchange/server/provider-kit';

/**
 * A simulator's queued outgoing work (webhooks, status callbacks) run by a {@link DueWorker}: a subclass says what
 * one pass does; starting, stopping, kicking and waiting are the worker's.
 */
export abstract class DueWork {
  private readonly worker: DueWorker;

  constructor(options: Omit<DueWorkerOptions, 'pass'>) {
    this.worker = new DueWorker({ ...options, pass: () => this.pass() });
  }

  /** Does the work that is due now. */
  protected abstract pass(): Promise<void>;

  /** True once stopped: a pass of many items ends early. */
  protected get stopping(): boolean {
    return this.worker.stopping;
  }

  /** Starts: a pass now, then whenever work falls due or is announced. */
  start(): void {
    this.worker.start();
  }

  /** Stops and waits for the pass under way. */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** Runs one pass now (or right after the current one). */
  kick(): void {
    this.worker.kick();
  }

  /** Resolves once no pass is under way (tests). */
  idle(): Promise<void> {
    return this.worker.idle();
  }

  /** How long it chose to sleep after its last pass, in ms (tests). */
  get sleptMs(): number | undefined {
    return this.worker.sleptMs;
  }
}
