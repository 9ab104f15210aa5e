import type { CommandResult } from '@exchange/engine';
import type pg from 'pg';
import type { JournalBatch } from './projection.ts';
import { RecentRefs } from './recent-refs.ts';
import type { Acknowledgement, CommittedResult } from './sequencer-types.ts';

/**
 * The core's client command ids: a command sent with an id takes effect at most once. A repeat while the first is
 * still under way shares its answer; a repeat of a committed one gets the first outcome, from the journal's recent
 * ids ({@link RecentRefs}) while the tables do not hold it yet, else from `client_commands`.
 */
export class ClientCommands {
  /** Ids in the journal whose rows the tables do not hold yet (the sequencer adds each committed batch). */
  readonly recent = new RecentRefs();
  private readonly inFlight = new Map<string, Promise<CommittedResult>>();

  constructor(
    private readonly db: pg.Pool,
    /** Resolves once the tables hold batch `seq` (the projector of the moment: a reload starts a new one). */
    private readonly whenProjected: (seq: number) => Promise<void>,
  ) {}

  /** Starts again from a load: the ids of the journal's batches beyond the tables (the projector writes them next). */
  restart(tail: readonly JournalBatch[]): void {
    this.recent.clear();
    for (const batch of tail)
      this.recent.add(
        batch.seq,
        batch.commands.map((command) => ({ ref: command.ref })),
        batch.results,
      );
  }

  /**
   * Runs `enqueue` for a command with id `ref` unless the id is under way or committed already. `firstSend`: a
   * fresh id on its first delivery (NATS delivers a request at most once) cannot have been committed before, so
   * the lookup is skipped; its retries look it up.
   */
  submit(
    ref: string,
    firstSend: boolean,
    ack: Acknowledgement,
    enqueue: () => Promise<CommittedResult>,
  ): Promise<CommittedResult> {
    const existing = this.inFlight.get(ref);
    if (existing) return existing;
    const promise = firstSend ? enqueue() : this.findCommitted(ref, ack).then((found) => found ?? enqueue());
    this.inFlight.set(ref, promise);
    promise.finally(() => this.inFlight.delete(ref)).catch(() => {});
    return promise;
  }

  /** The outcome of a client command id committed before: from the journal's recent ids, else the tables. */
  private async findCommitted(ref: string, ack: Acknowledgement): Promise<CommittedResult | undefined> {
    const recent = this.recent.get(ref);
    if (recent) {
      if (ack === 'projected') await this.whenProjected(recent.seq);
      return outcome(ref, recent);
    }
    const row = (
      await this.db.query<{ ok: boolean; code: string | null; order_id: string | null }>(
        'select ok, code, order_id from client_commands where ref = $1',
        [ref],
      )
    ).rows[0];
    if (!row) return undefined;
    return outcome(ref, {
      ok: row.ok,
      code: row.code,
      orderId: row.order_id === null ? null : Number(row.order_id),
    });
  }
}

/** A committed outcome as a repeat of its client command id gets it: no events, postings or orders. */
function outcome(
  ref: string,
  found: { ok: boolean; code: string | null; orderId: number | null; seq?: number },
): CommittedResult {
  return {
    ok: found.ok,
    code: found.code as CommandResult['code'],
    ref,
    events: [],
    postings: [],
    orders: [],
    orderId: found.orderId,
    swap: null,
    ...(found.seq === undefined ? {} : { seq: found.seq }),
  };
}
