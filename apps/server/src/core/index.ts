import type { CommandResult, Engine } from '@exchange/engine';
import type pg from 'pg';
import { type CoreLease, DeposedError } from './lease.ts';
import type { MarketInfo } from './market-info.ts';
import { Units } from './persistence.ts';
import { claimProjection, loadCore } from './recovery.ts';
import {
  type CommittedBatch,
  type CommittedResult,
  type RecoveredListener,
  Sequencer,
  type SequencerOptions,
  type SubmitOptions,
  type Submitted,
} from './sequencer.ts';

/**
 * What the rest of the app uses of the core: the active core's {@link Sequencer} in its own process, or in an
 * api or ws process a replica that sends commands to the active core and applies its committed batches.
 */
export interface CoreSequencer {
  /** The engine, for reads (depth, balances) of committed state; never apply commands to it directly. */
  readonly state: Engine;
  readonly available: boolean;
  readonly coreTerm: number;
  /** The last batch committed (the active core) or applied (a replica). */
  readonly committedSeq: number;
  submit(command: Submitted, ref?: string, options?: SubmitOptions): Promise<CommittedResult>;
  submitDated(command: Submitted, at: number): Promise<CommandResult>;
  /**
   * Resolves once the tables hold every command acknowledged before the call (by this process at least): reads of
   * orders, trades, balances and the ledger after it see them.
   */
  settled(): Promise<void>;
  onCommitted(listener: (batch: CommittedBatch) => void): void;
  onRecovered(listener: RecoveredListener): void;
  drain(): Promise<void>;
}

/** A running exchange core. */
export interface Core {
  sequencer: CoreSequencer;
  units: Units;
  markets: Map<string, MarketInfo>;
}

/** The core of the process that holds the lease: its sequencer is the real one. */
export interface ActiveCore extends Core {
  sequencer: Sequencer;
}

/**
 * Loads the engine's configuration and state from the database and starts the sequencer over it. When the
 * database goes away under a batch, the sequencer reloads the state the same way once it is back; `onFatal` is
 * called for failures that a reload cannot fix.
 */
export async function startCore(
  db: pg.Pool,
  options: Partial<SequencerOptions> = {},
  onFatal: (err: Error) => void = () => {},
  /** The lease of the active core (the app's); without one the core fences by the term it finds. */
  lease?: CoreLease,
): Promise<ActiveCore> {
  const units = new Units(new Map(), new Map());
  // Balances and orders, and also markets and fees (staff change them through the core, and each change is
  // projected with its batch): a reload reads them all again.
  // The tables, then the journal after them: the engine continues from exactly what was committed.
  const load = async () => {
    await lease?.confirm();
    await claimProjection(db);
    const loaded = await loadCore(db, units, { check: true });
    const { term } = loaded.position;
    if (lease && term !== lease.term)
      throw new DeposedError(`exchange core term ${lease.term} was superseded by term ${term}`);
    return loaded;
  };
  const sequencer = new Sequencer(await load(), db, units, options, onFatal, load);
  // What the journal holds beyond the tables (a crash, a takeover) is projected before anything reads them.
  await sequencer.ready();
  return {
    sequencer,
    units,
    markets: units.markets,
  };
}
