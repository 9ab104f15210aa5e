/**
 * A background task run again `intervalMs` after each run ends (runs never overlap), until {@link stop}. The
 * timer does not keep the process alive. A failed run is reported to `onError` and the next one still comes.
 */
export class Repeating {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Starts the repetition: the first run now (`firstNow`) or after one interval. */
  start(firstNow = false): void {
    if (this.stopped) return;
    if (firstNow) this.runThenWait();
    else this.wait();
  }

  /** No further run starts (one under way finishes; its owner waits for it if it must). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private runThenWait(): void {
    this.run()
      .catch(this.onError)
      .finally(() => this.wait());
  }

  private wait(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.runThenWait(), this.intervalMs);
    this.timer.unref();
  }
}

/**
 * Waits for a run under way to end, at most `ms`: a shutdown waits for work in progress, but a run stuck on a
 * database that went away (a query queued on a pool that has ended never settles) must not hold it.
 */
export async function runEnded(running: Promise<unknown> | undefined, ms = 5_000): Promise<void> {
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    running.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
