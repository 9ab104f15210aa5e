/**
 * Where the server's time comes from. Every rule a test must move in time (rate-limit windows, one-time code
 * expiry and resend gaps, login lockouts, session expiry, API-key nonce windows, withdrawal holds, review due
 * dates) reads this port, and the SQL behind those rules takes its "now" as a parameter instead of calling
 * PostgreSQL's `now()`, so a test moves the clock instead of sleeping or backdating rows.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

/** The machine's clock: what production runs on. */
export const systemClock: Clock = { now: () => Date.now() };

/** The clock's time as a Date: the SQL parameter (timestamptz) of a rule's "now". */
export function dateOf(clock: Clock): Date {
  return new Date(clock.now());
}

/**
 * A clock that runs with the machine's, shifted by an offset that tests move: {@link advance} jumps ahead,
 * {@link set} puts it at a given moment (from where it runs on). It keeps running, so the parts of the server
 * that only need time to pass (caches, timers) behave as with the machine's clock. A server started with
 * NODE_ENV=test runs on one and exposes a test-only control to move it (modules/dev/clock-routes.ts).
 */
export class TestClock implements Clock {
  private offsetMs = 0;

  constructor(startAt?: number) {
    if (startAt !== undefined) this.set(startAt);
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock `ms` ahead (never back: rules may assume that time does not run backwards). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`a clock moves ahead only, not by ${ms} ms`);
    this.offsetMs += ms;
  }

  /** Puts the clock at `epochMs` (it runs on from there); for a test that needs a given date. */
  set(epochMs: number): void {
    if (!Number.isFinite(epochMs)) throw new RangeError(`not a moment: ${epochMs}`);
    this.offsetMs = epochMs - Date.now();
  }

  /** How far the clock is from the machine's, in ms. */
  get offset(): number {
    return this.offsetMs;
  }
}
