/**
 * The projector's thread (see projector-thread.ts): it rebuilds the engine from the tables, applies each journal
 * batch it is sent to that replica (the engine is deterministic: the same commands on the same state give the
 * core's results), writes the tables from the results, and now and then stores a snapshot of its engine. All of it
 * off the core's thread, on the machine's other processor.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '@exchange/engine';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { createPool } from '../db/pool.ts';
import { loadEngineConfig } from './engine-config.ts';
import { decodeBatch } from './journal/codec.ts';
import { engineHash, writeSnapshot } from './journal/snapshots.ts';
import { loadEngineState, Units } from './persistence.ts';
import { Projector } from './projector.ts';
import type {
  ProjectorRequest,
  ProjectorUpdate,
  ProjectorWorkerData,
  ThreadBatch,
} from './projector-thread.ts';
import { applyAll } from './recovery.ts';

const port = parentPort;
if (!port) throw new Error('the projector runs in a worker thread');
const data = workerData as ProjectorWorkerData;
const post = (update: ProjectorUpdate) => port.postMessage(update);
const pool = createPool(data.url, 3);
const units = new Units(new Map(), new Map());
let engine: Engine | undefined;
let applied = data.projectedSeq;
let nextCommand = 0;
let sinceSnapshot = 0;
let snapshotAt = Date.now();
let snapshotting: Promise<void> = Promise.resolve();
let failed = false;

const fail = (err: unknown) => {
  if (failed) return new Error('stopped');
  failed = true;
  const error = err instanceof Error ? err : new Error(String(err));
  post({ type: 'failed', message: error.message, unavailable: isDatabaseUnavailable(error) });
  return error;
};

const projector = new Projector(pool, units, () => data.term, data.projectedSeq, fail);
projector.onTimed((t) => post({ type: 'projected', seq: projector.projectedSeq, ...t }));

/** The replica, as the tables hold it. */
async function load(): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { config, markets } = await loadEngineConfig(client);
    units.replace(markets, config.currencies);
    const { state, position } = await loadEngineState(client, units);
    await client.query('commit');
    if (position.projectedSeq !== data.projectedSeq)
      throw new Error(`the tables are at batch ${position.projectedSeq}, not ${data.projectedSeq}`);
    engine = new Engine(config, state);
    nextCommand = data.nextCommand;
    post({ type: 'ready' });
    // The first snapshot of a database (a new one, or one from before the journal), and one at every start with
    // commands since the last: the tables' state.
    if (data.snapshotOnStart) await writeSnapshot(pool, applied, nextCommand, engineHash(engine));
  } finally {
    client.release();
  }
}

/** Applies one journal batch to the replica and hands its results to the projector. */
function apply(message: ThreadBatch): void {
  const current = engine as Engine;
  if (message.seq !== applied + 1) throw new Error(`batch ${message.seq} arrived after batch ${applied}`);
  const { commands } = decodeBatch(message.body);
  const results = applyAll(current, units, commands);
  applied = message.seq;
  nextCommand = message.firstCommand + commands.length;
  // A write-through batch is in the tables already (written with the journal): only the replica follows it.
  if (message.written) projector.skip(message.seq);
  else projector.add({ seq: message.seq, firstCommand: message.firstCommand, commands, results });
  sinceSnapshot += commands.length;
  if (sinceSnapshot >= data.snapshotEvery.commands || Date.now() - snapshotAt >= data.snapshotEvery.ms)
    snapshot(current);
}

/** Stores the replica's state after the batch just applied (one write at a time; a busy one skips a turn). */
function snapshot(current: Engine): void {
  sinceSnapshot = 0;
  snapshotAt = Date.now();
  const seq = applied;
  const next = nextCommand;
  const started = performance.now();
  const taken = engineHash(current);
  snapshotting = snapshotting.then(() =>
    writeSnapshot(pool, seq, next, taken).then(
      () => post({ type: 'snapshot', seq, hash: taken.hash, ms: performance.now() - started }),
      (err: unknown) => post({ type: 'snapshot-failed', seq, message: String(err) }),
    ),
  );
}

let chain: Promise<void> = load().catch((err) => {
  fail(err);
});

port.on('message', (message: ProjectorRequest) => {
  chain = chain.then(async () => {
    if (failed && message.type !== 'stop') return;
    try {
      if (message.type === 'batches') {
        for (const batch of message.batches) apply(batch);
        post({ type: 'took' });
      } else if (message.type === 'stop') {
        await projector.stop(new Error('stopped'));
        // A stop with the tables complete leaves a snapshot of them: the next start replays nothing before it.
        if (engine && sinceSnapshot > 0 && projector.projectedSeq === applied && !failed) snapshot(engine);
        await snapshotting;
        await pool.end().catch(() => {});
        post({ type: 'stopped' });
        port.close();
      }
    } catch (err) {
      fail(err);
    }
  });
});
