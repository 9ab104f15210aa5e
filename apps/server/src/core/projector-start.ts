import type pg from 'pg';
import { encodeBatch } from './journal/codec.ts';
import type { Units } from './persistence.ts';
import type { JournalBatch } from './projection.ts';
import { Projector, type TablesProjector } from './projector.ts';
import { ProjectorThread } from './projector-thread.ts';
import type { LoadedCore, SequencerOptions } from './sequencer-types.ts';

/** A running projector, and how the sequencer hands it each committed batch. */
export interface ProjectorHandle {
  projector: TablesProjector;
  /** Sends a committed batch (`written`: the journal's transaction wrote its tables too, write-through). */
  feed(batch: JournalBatch, written: boolean): void;
}

/**
 * Starts the projector of a core loaded as `loaded`: on a thread of its own when the pool names its database (the
 * default), else on the core's thread. Write-through writes the tables itself, with each journal batch: it needs no
 * thread (and takes no snapshots: it is the bench's comparison path, and a fallback). The batches of the journal
 * beyond the tables (a crash, a takeover) are sent first.
 */
export function startProjector(
  db: pg.Pool,
  units: Units,
  options: SequencerOptions,
  loaded: LoadedCore,
  term: () => number,
  onFailure: (err: Error) => Error,
): ProjectorHandle {
  const url = (db as { options?: { connectionString?: string } }).options?.connectionString;
  let handle: ProjectorHandle;
  if (options.projector === 'thread' && url && !options.writeThrough) {
    const first = loaded.tail[0];
    const thread = new ProjectorThread(
      {
        url,
        projectedSeq: loaded.position.projectedSeq,
        nextCommand: first ? first.firstCommand : loaded.position.nextCommand,
        term: loaded.position.term,
        snapshotOnStart: loaded.snapshotSeq !== loaded.position.projectedSeq,
        snapshotEvery: options.snapshotEvery,
      },
      onFailure,
      options.log,
      options.projectorModule,
    );
    handle = {
      projector: thread,
      feed: (batch, written) =>
        thread.add(
          {
            seq: batch.seq,
            firstCommand: batch.firstCommand,
            body: batch.body ?? encodeBatch(batch.commands, batch.commands[0]?.at ?? 0),
            ...(written ? { written } : {}),
          },
          batch.commands.length,
        ),
    };
  } else {
    const inline = new Projector(db, units, term, loaded.position.projectedSeq, onFailure);
    handle = {
      projector: inline,
      feed: (batch, written) => (written ? inline.skip(batch.seq) : inline.add(batch)),
    };
  }
  for (const batch of loaded.tail) handle.feed(batch, false);
  return handle;
}
