/**
 * The nonces one API key has used lately, for refusing a replay. A set answers "seen?"; a queue in arrival order
 * says which to forget as time moves, so a request costs the same however busy its key is. (A `Map` emptied from
 * its front did not: V8 keeps deleted entries in place until it rehashes, and every scan from the front stepped
 * over all of them.)
 */
export class NonceLog {
  private readonly seen = new Set<string>();
  private nonces: string[] = [];
  private times: number[] = [];
  private head = 0;

  constructor(private readonly keepMs: number) {}

  /** Records `nonce` as used at `now`; false if it is already recorded. Forgets nonces older than `keepMs`. */
  add(nonce: string, now: number): boolean {
    this.expire(now);
    if (this.seen.has(nonce)) return false;
    this.seen.add(nonce);
    this.nonces.push(nonce);
    this.times.push(now);
    return true;
  }

  private expire(now: number): void {
    while (this.head < this.nonces.length && now - (this.times[this.head] as number) > this.keepMs) {
      this.seen.delete(this.nonces[this.head] as string);
      this.head++;
    }
    // Drop the forgotten front of the queue once it is most of it, so memory follows the live nonces.
    if (this.head > 1024 && this.head * 2 > this.nonces.length) {
      this.nonces = this.nonces.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}
