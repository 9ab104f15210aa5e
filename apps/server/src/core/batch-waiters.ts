interface Waiter {
  promise: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * Callers waiting for the tables to hold a batch: `until(seq)` resolves once `reach` has passed `seq`, or rejects
 * with the error of `fail`. One promise per batch number, shared by everyone waiting for it.
 */
export class BatchWaiters {
  private readonly waiting = new Map<number, Waiter>();
  private failure: Error | undefined;

  constructor(private reached: number) {}

  /** The last batch reached. */
  get position(): number {
    return this.reached;
  }

  /** Resolves once batch `seq` is reached (at once if it is); rejects once they have failed. */
  until(seq: number): Promise<void> {
    if (seq <= this.reached) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    let waiter = this.waiting.get(seq);
    if (!waiter) {
      let resolve!: () => void;
      let reject!: (err: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // A caller may drop its promise; the rejection must not go unhandled then.
      promise.catch(() => {});
      waiter = { promise, resolve, reject };
      this.waiting.set(seq, waiter);
    }
    return waiter.promise;
  }

  /** Every batch up to `seq` is reached: their waiters are answered. */
  reach(seq: number): void {
    const from = this.reached;
    if (seq <= from) return;
    this.reached = seq;
    for (let n = from + 1; n <= seq; n++) {
      const waiter = this.waiting.get(n);
      if (waiter) {
        this.waiting.delete(n);
        waiter.resolve();
      }
    }
  }

  /** Nothing more will be reached: every waiter now and later gets `err`. */
  fail(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }
}
