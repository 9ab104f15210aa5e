/**
 * Open orders by id. Ids are assigned sequentially, so a paged array beats a hash map: O(1) get/set/delete
 * without hashing, and pages are dropped as soon as every order in them is closed.
 */

const PAGE = 4096;

/** Anything with a numeric id. */
export interface HasId {
  readonly id: number;
}

export class OrderIndex<T extends HasId> {
  private pages: Array<Array<T | undefined> | null> = [];
  private live: number[] = [];
  /** Page number of pages[0]. */
  private base = 0;
  size = 0;

  get(id: number): T | undefined {
    // Fast path for int32 ids (PAGE = 2^12); anything else goes through the exact checks.
    let pn: number;
    if ((id | 0) === id && id >= 0) pn = id >> 12;
    else if (!Number.isSafeInteger(id) || id < 0) return undefined;
    else pn = Math.floor(id / PAGE);
    const i = pn - this.base;
    if (i < 0 || i >= this.pages.length) return undefined;
    const p = this.pages[i];
    return p == null ? undefined : p[id - pn * PAGE];
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(o: T): void {
    const pn = Math.floor(o.id / PAGE);
    if (this.pages.length === 0) this.base = pn;
    while (pn < this.base) {
      this.pages.unshift(null);
      this.live.unshift(0);
      this.base--;
    }
    const i = pn - this.base;
    while (this.pages.length <= i) {
      this.pages.push(null);
      this.live.push(0);
    }
    let p = this.pages[i];
    if (p == null) {
      p = new Array<T | undefined>(PAGE).fill(undefined);
      this.pages[i] = p;
    }
    const slot = o.id - pn * PAGE;
    if (p[slot] === undefined) {
      this.live[i] = (this.live[i] as number) + 1;
      this.size++;
    }
    p[slot] = o;
  }

  delete(id: number): void {
    const pn = Math.floor(id / PAGE);
    const i = pn - this.base;
    const p = this.pages[i];
    if (p == null) return;
    const slot = id - pn * PAGE;
    if (p[slot] === undefined) return;
    p[slot] = undefined;
    this.size--;
    const left = (this.live[i] as number) - 1;
    this.live[i] = left;
    // Free an empty page unless it is the newest one (which new ids are still filling).
    if (left === 0 && i !== this.pages.length - 1) {
      this.pages[i] = null;
      // drop leading empty pages (the common case: old pages empty out first)
      let k = 0;
      while (k < this.pages.length && this.pages[k] === null) k++;
      if (k > 64 || k === this.pages.length) {
        this.pages.splice(0, k);
        this.live.splice(0, k);
        this.base += k;
      }
    }
  }

  *values(): IterableIterator<T> {
    for (const p of this.pages) {
      if (p === null) continue;
      for (const o of p) if (o !== undefined) yield o;
    }
  }
}
