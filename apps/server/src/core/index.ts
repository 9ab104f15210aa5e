import { Engine } from '@exchange/engine';
import type pg from 'pg';
import { loadEngineConfig, type MarketInfo } from './engine-config.ts';
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
): Promise<Core> {
  const { config, markets } = await loadEngineConfig(db);
  const units = new Units(markets, new Map(config.currencies.map((c) => [c.id, c.precision])));
  // Reference data (currencies, markets, fees) does not change while the app runs; balances and orders do.
  const load = async () => {
    const { state, batchSeq } = await loadEngineState(db, units);
    return { engine: new Engine(config, state), batchSeq };
  };
  const { engine, batchSeq } = await load();
  return { sequencer: new Sequencer(engine, db, units, batchSeq, options, onFatal, load), units, markets };
}
