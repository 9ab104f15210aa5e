import type { Command, CommandResult, Engine } from '@exchange/engine';
import { PROJECTOR_MODULE } from '../paths.ts';
import type { CorePosition } from './persistence.ts';
import type { JournalBatch } from './projection.ts';

/** The exchange core's sequencer, as callers and the modules around it see it (see sequencer.ts). */

/** A command as callers submit it: the sequencer stamps the time. */
export type Submitted = Command extends infer C ? (C extends Command ? Omit<C, 'at'> : never) : never;

/** A command's result once committed, with the batch it was committed in. */
export type CommittedResult = CommandResult & { seq?: number };

/** Committed results of one batch, in order, for publishing (websocket streams, tickers, ...). */
export interface CommittedBatch {
  seq: number;
  results: CommandResult[];
  /** The commands as applied (stamped with their time), for replicas that apply them again. */
  commands: Command[];
  /** The same commands as the journal holds them (see journal/codec.ts), when the active core committed them. */
  body?: string;
}

/**
 * When a caller is answered: once its command is in the journal (`journal`: the command is durable and its
 * effects are certain; the tables follow within milliseconds), or once the tables hold its effects too
 * (`projected`, the default: for callers that read or write the tables right after).
 */
export type Acknowledgement = 'journal' | 'projected';

/** Options of one submission. */
export interface SubmitOptions {
  /** A fresh client command id on its first delivery: it cannot have been committed before (no lookup). */
  firstSend?: boolean;
  ack?: Acknowledgement;
}

/**
 * How a batch is cut: at most `maxBatch` commands, waiting at most `maxDelayMs` for more to arrive.
 * `writeThrough` writes each batch's effects to the tables in the journal's own transaction instead of behind
 * it (the write path of earlier versions, kept for comparison and as a fallback): every answer then waits for them.
 */
export interface SequencerOptions {
  maxBatch: number;
  maxDelayMs: number;
  now: () => number;
  writeThrough: boolean;
  /**
   * Where the projector runs: on a thread of its own (the default: the core's thread only sends it each batch's
   * journal text), or on the core's thread.
   */
  projector: 'thread' | 'inline';
  /**
   * The projector thread's module: the server's own by default (paths.ts). The test suite names the
   * build's (`dist/projector-worker.js`), which starts without compiling its TypeScript: about a second of CPU
   * less for each core a test starts.
   */
  projectorModule: URL;
  /** Engine snapshots (by the projector's thread): after this many commands or this long, whichever first. */
  snapshotEvery: { commands: number; ms: number };
  log: { warn(message: string): void; error(message: string): void };
}

/** How one batch went, for metrics: its size and the time from the start of its write to its durable commit. */
export interface BatchTiming {
  commands: number;
  commitMs: number;
}

/** The engine and where it stands, as loaded from the tables and the journal (see recovery.ts). */
export interface LoadedCore {
  engine: Engine;
  position: CorePosition;
  /** The journal's batches after the tables (`position.projectedSeq`), replayed: the projector writes them. */
  tail: JournalBatch[];
  /** The snapshot the engine was rebuilt from, if any (else the tables). */
  snapshotSeq?: number;
  /** The replay from the snapshot differed from the tables at their batch: the engine is the tables'. */
  mismatch?: { snapshotSeq: number; replayed: string; tables: string };
}

/** Reads the engine back from the database, as a fresh start does. */
export type EngineLoader = () => Promise<LoadedCore>;

/**
 * Told when the core has reloaded itself, before it takes commands again; `missed` when a batch committed whose
 * answer was lost with the connection (it was never published). The core waits for a returned promise.
 */
export type RecoveredListener = (info: { seq: number; missed: boolean }) => void | Promise<void>;

/** The sequencer's options where a caller gives none. */
export const SEQUENCER_DEFAULTS: SequencerOptions = {
  maxBatch: 5000,
  maxDelayMs: 1,
  now: Date.now,
  writeThrough: false,
  projector: 'thread',
  projectorModule: PROJECTOR_MODULE,
  snapshotEvery: { commands: 1_000_000, ms: 10 * 60 * 1000 },
  log: console,
};
