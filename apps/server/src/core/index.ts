import { Engine } from '@exchange/engine';
import type pg from 'pg';
import { loadEngineConfig, type MarketInfo } from './engine-config.ts';
import { type CoreLease, DeposedError } from './lease.ts';
import { loadEngineState, Units } from './persistence.ts';
import { Sequencer, type SequencerOptions } from './sequencer.ts';

/** A running exchange core. */
export interface Core {
  sequencer: Sequencer;
  units: Units;
  markets: Map<string, MarketInfo>;
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
): Promise<Core> {
  const { config, markets } = await loadEngineConfig(db);
  const units = new Units(markets, new Map(config.currencies.map((c) => [c.id, c.precision])));
  // Reference data (currencies, markets, fees) does not change while the app runs; balances and orders do.
  const load = async () => {
    await lease?.confirm();
    const { state, batchSeq, term } = await loadEngineState(db, units);
    if (lease && term !== lease.term)
      throw new DeposedError(`exchange core term ${lease.term} was superseded by term ${term}`);
    return { engine: new Engine(config, state), batchSeq, term };
  };
  const { engine, batchSeq, term } = await load();
  return {
    sequencer: new Sequencer(engine, db, units, batchSeq, term, options, onFatal, load),
    units,
    markets,
  };
}
