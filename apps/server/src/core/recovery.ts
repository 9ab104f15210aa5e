import { type Command, type CommandResult, Engine } from '@exchange/engine';
import type pg from 'pg';
import { loadEngineConfig } from './engine-config.ts';
import { decodeBatch } from './journal/codec.ts';
import { readJournal } from './journal/journal.ts';
import { engineFromSnapshot, engineHash, newestSnapshot } from './journal/snapshots.ts';
import { changesMarkets, followMarkets } from './market-rows.ts';
import { loadEngineState, readPosition, type Units } from './persistence.ts';
import type { JournalBatch } from './projection.ts';
import type { LoadedCore } from './sequencer.ts';

/**
 * Makes the tables' projection this core's: `core_projection.term` becomes the current core term. The update waits
 * for a projection still being written by a predecessor (its row lock) and afterwards refuses that predecessor's
 * writes (they carry the old term). The active core runs it before it reads where the tables stand.
 */
export async function claimProjection(db: pg.Pool | pg.PoolClient): Promise<void> {
  await db.query(
    `update core_projection p set term = e.core_term from engine_state e
     where p.id = 1 and e.id = 1 and p.term <= e.core_term`,
  );
}

/** Journal batches read per query while replaying. */
const PAGE = 2_000;

/**
 * The engine as the database holds it: the newest snapshot no later than the tables (else the tables themselves,
 * as of `projected_seq`), then every journal batch after it replayed in order, so the engine stands at the
 * journal's newest batch. The batches after the tables are returned with their results for the projector. Read it
 * in one snapshot (a repeatable-read transaction), or while no one writes (the active core, its projector stopped).
 *
 * `check`: the replay from the snapshot is compared with the tables at their batch (state hashes); on a difference
 * the engine continues from the tables (what every reader has been served) and the difference is returned.
 */
export async function loadCore(
  db: pg.Pool | pg.PoolClient,
  units: Units,
  options: { snapshots?: boolean; check?: boolean } = {},
): Promise<LoadedCore> {
  const { config, markets } = await loadEngineConfig(db);
  units.replace(markets, config.currencies);
  const position = await readPosition(db);
  const snapshot = options.snapshots === false ? undefined : await newestSnapshot(db, position.projectedSeq);
  const fromTables = async () => new Engine(config, (await loadEngineState(db, units)).state);
  let engine: Engine;
  let mismatch: LoadedCore['mismatch'];
  if (snapshot) {
    engine = engineFromSnapshot(snapshot.state);
    await replayJournal(db, engine, units, snapshot.seq, position.projectedSeq, false);
    if (options.check) {
      const tables = await fromTables();
      const [replayed, held] = [engineHash(engine).hash, engineHash(tables).hash];
      if (replayed !== held) {
        mismatch = { snapshotSeq: snapshot.seq, replayed, tables: held };
        engine = tables;
      }
    }
  } else engine = await fromTables();
  const tail = await replayJournal(db, engine, units, position.projectedSeq, position.journalSeq);
  const last = tail[tail.length - 1];
  if (last && last.firstCommand + last.commands.length !== position.nextCommand)
    throw new Error(
      `the journal ends at command ${last.firstCommand + last.commands.length - 1}, but the core expects ${position.nextCommand} next`,
    );
  return {
    engine,
    position,
    tail,
    ...(snapshot ? { snapshotSeq: snapshot.seq } : {}),
    ...(mismatch ? { mismatch } : {}),
  };
}

/**
 * Applies the journal's batches after `afterSeq` up to `toSeq` to `engine`, in order, and returns them with their
 * results. The journal must have every one of them: a gap is refused, never skipped.
 */
export async function replayJournal(
  db: pg.Pool | pg.PoolClient,
  engine: Engine,
  units: Units,
  afterSeq: number,
  toSeq: number,
  keep = true,
): Promise<JournalBatch[]> {
  const out: JournalBatch[] = [];
  let seq = afterSeq;
  while (seq < toSeq) {
    const rows = await readJournal(db, seq, toSeq, PAGE);
    if (rows.length === 0) throw new Error(`the journal has no batch ${seq + 1} (it should reach ${toSeq})`);
    for (const row of rows) {
      if (row.seq !== seq + 1) throw new Error(`the journal has no batch ${seq + 1} (next is ${row.seq})`);
      const { commands } = decodeBatch(row.body);
      if (commands.length !== row.commands)
        throw new Error(`journal batch ${row.seq} holds ${commands.length} commands, not ${row.commands}`);
      const results = applyAll(engine, units, commands);
      if (keep) out.push({ seq: row.seq, firstCommand: row.firstCommand, commands, results, body: row.body });
      seq = row.seq;
    }
  }
  return out;
}

/** Applies commands in order, following market changes as the live core does. */
export function applyAll(engine: Engine, units: Units, commands: Command[]): CommandResult[] {
  const results: CommandResult[] = [];
  for (const command of commands) {
    const result = engine.apply(command);
    if (changesMarkets(command)) followMarkets(units, result);
    results.push(result);
  }
  return results;
}
