import type { CommandResult } from '@exchange/engine';

/** The outcome a repeated client command id gets. */
export interface RecentOutcome {
  seq: number;
  ok: boolean;
  code: string | null;
  orderId: number | null;
}

/**
 * The client command ids of batches in the journal that the tables (`client_commands`) do not hold yet. A repeat
 * of one of them must find its first outcome here: looked up in the tables alone, it would be applied twice.
 * Entries go once the projector has written their batch.
 */
export class RecentRefs {
  private readonly byRef = new Map<string, RecentOutcome>();
  /** The ids of each batch, oldest first, to forget them as the projector passes. */
  private readonly batches: { seq: number; refs: string[] }[] = [];
  private head = 0;

  /** Records the ids of a committed batch (`items[i]` made `results[i]`). */
  add(seq: number, items: readonly { ref?: string | undefined }[], results: readonly CommandResult[]): void {
    const refs: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const ref = (items[i] as { ref?: string | undefined }).ref;
      if (ref === undefined) continue;
      const result = results[i] as CommandResult;
      this.byRef.set(ref, { seq, ok: result.ok, code: result.code, orderId: result.orderId });
      refs.push(ref);
    }
    if (refs.length > 0) this.batches.push({ seq, refs });
  }

  /** The outcome of `ref` if its batch is not in the tables yet. */
  get(ref: string): RecentOutcome | undefined {
    return this.byRef.get(ref);
  }

  /** Forgets the ids of every batch up to `seq`: the tables hold them now. */
  projected(seq: number): void {
    while (this.head < this.batches.length && (this.batches[this.head] as { seq: number }).seq <= seq) {
      const batch = this.batches[this.head++] as { seq: number; refs: string[] };
      for (const ref of batch.refs) if (this.byRef.get(ref)?.seq === batch.seq) this.byRef.delete(ref);
    }
    if (this.head > 1024 && this.head * 2 > this.batches.length) {
      this.batches.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Forgets everything (a reload reads the tables and the journal again). */
  clear(): void {
    this.byRef.clear();
    this.batches.length = 0;
    this.head = 0;
  }
}
