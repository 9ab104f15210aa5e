import type { Command } from '@exchange/engine';
import { genMixed, runEngineBench } from '@exchange/engine/bench';
import type { Acknowledgement, ActiveCore, SequencerOptions, Submitted } from '@exchange/server/bench';
import type pg from 'pg';
import { benchServer } from './bench-app.ts';
import { percentile, printTable, rate } from './stats.ts';

interface DurableResult {
  ordersPerSecond: number;
  p50: number;
  p99: number;
  /** The most commands in the journal and not yet in the tables, sampled every 10 ms. */
  maxLag: number;
  /** How long after the last answer the tables held everything (ms). */
  catchUpMs: number;
  /** Commands projected per second over the run and its catch-up. */
  projectedPerSecond: number;
}

/** A path to compare: when callers are answered, and how the batch is written. */
interface PathSpec {
  ack: Acknowledgement;
  options: Partial<SequencerOptions>;
}

/** The journal path: answered once the batch is in the journal; the projector writes the tables behind. */
const JOURNAL: PathSpec = { ack: 'journal', options: {} };
/** The write path of earlier versions: the batch's effects in the journal's transaction, answered after it. */
const WRITE_THROUGH: PathSpec = { ack: 'projected', options: { writeThrough: true } };

/**
 * The bench's 1,000 users (ids 1-1,000, as the engine benchmark's stream names them), a core of the built server,
 * and each user credited 10^20 units of USDT and 10^18 of BTC through it.
 */
export async function fundedCore(
  pool: pg.Pool,
  options: Partial<SequencerOptions> = {},
): Promise<ActiveCore> {
  await pool.query(
    `insert into users (id, uid, email, password_digest, level, state)
     select g, 'IDBENCH' || g, 'bench' || g || '@bench.test', 'x', 2, 'active' from generate_series(1, 1000) g`,
  );
  const { startCore } = await benchServer();
  const core = await startCore(pool, options);
  await Promise.all(
    Array.from({ length: 1000 }, (_, i) =>
      Promise.all(
        (['usdt', 'btc'] as const).map((currency) =>
          core.sequencer.submit({
            type: 'Credit',
            user: i + 1,
            currency,
            amount: currency === 'usdt' ? 10n ** 20n : 10n ** 18n,
            kind: 'deposit',
          }),
        ),
      ),
    ),
  );
  return core;
}

/**
 * Replays the engine benchmark's mixed stream (70% limit orders around a random-walk mid, 20% cancels of live
 * orders, 10% market orders; 1,000 funded users) through the sequencer, each caller waiting for its durable
 * answer. Commands are submitted in stream order, so order ids match the stream's.
 */
async function setUp(pool: pg.Pool, count: number, options: Partial<SequencerOptions>) {
  const stream = genMixed(count, 42).cmds;
  const core = await fundedCore(pool, options);
  return { stream, core };
}

/** Samples the projector's lag while `work` runs, then waits for the tables to catch up. */
async function measured(
  core: ActiveCore,
  count: number,
  work: () => Promise<{ started: number; latencies: number[] }>,
): Promise<DurableResult> {
  let maxLag = 0;
  const sampler = setInterval(() => {
    maxLag = Math.max(maxLag, core.sequencer.tables.lagCommands);
  }, 10);
  const { started, latencies } = await work();
  const answered = performance.now();
  await core.sequencer.drain();
  clearInterval(sampler);
  const caughtUp = performance.now();
  await core.sequencer.tables.stop(new Error('bench over'));
  return {
    ordersPerSecond: count / ((answered - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    maxLag,
    catchUpMs: caughtUp - answered,
    projectedPerSecond: count / ((caughtUp - started) / 1000),
  };
}

/** Closed loop: `callers` each send their next command when the last is answered (latency >= callers / rate). */
async function closedLoop(pool: pg.Pool, count: number, callers: number, path: PathSpec) {
  const { stream, core } = await setUp(pool, count, { maxBatch: callers / 2, ...path.options });
  return measured(core, stream.length, async () => {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    const caller = async () => {
      while (next < stream.length) {
        const { at: _at, ...command } = stream[next++] as Command;
        const t0 = performance.now();
        await core.sequencer.submit(command as Submitted, undefined, { ack: path.ack });
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: callers }, caller));
    return { started, latencies };
  });
}

/**
 * Open loop: commands arrive at a fixed `perSecond` whatever the answers do, the way independent clients send
 * them, and each latency is timed from when its command was due, so a stall counts against every command it
 * delayed. The first second warms up (JIT, caches) and is not timed.
 */
async function openLoop(pool: pg.Pool, seconds: number, perSecond: number, path: PathSpec) {
  const { stream, core } = await setUp(pool, Math.round(seconds * perSecond), {
    maxBatch: 5000,
    ...path.options,
  });
  return measured(core, stream.length, () => {
    const latencies: number[] = [];
    const started = performance.now();
    const timedFrom = started + 1000;
    let next = 0;
    let answered = 0;
    return new Promise((done, failed) => {
      // Only a count of answers is kept, not a promise per command: the generator should not feed the GC.
      const answer = (dueAt: number) => () => {
        if (dueAt >= timedFrom) latencies.push(performance.now() - dueAt);
        if (++answered === stream.length) done({ started, latencies });
      };
      const tick = () => {
        const due = Math.min(stream.length, Math.floor(((performance.now() - started) * perSecond) / 1000));
        for (; next < due; next++) {
          const { at: _at, ...command } = stream[next] as Command;
          const dueAt = started + (next * 1000) / perSecond;
          core.sequencer
            .submit(command as Submitted, undefined, { ack: path.ack })
            .then(answer(dueAt), failed);
        }
        if (next < stream.length) setTimeout(tick, 1);
      };
      tick();
    });
  });
}

/**
 * How long a start takes after `count` journalled commands (the snapshot every 1M commands is turned off for this):
 * after a clean stop, which leaves a snapshot of the tables (nothing to replay), and after a crash, which leaves
 * none (the stop's snapshot removed: the start replays the journal since the snapshot before it, the tables being
 * complete). Also the journal's size on disk per million commands.
 */
async function recovery(pool: pg.Pool, count: number) {
  const options = { snapshotEvery: { commands: 10 ** 9, ms: 10 ** 9 } };
  const { stream, core } = await setUp(pool, count, options);
  await measured(core, stream.length, async () => {
    const started = performance.now();
    for (let i = 0; i < stream.length; i += 10_000) {
      const part = stream.slice(i, i + 10_000);
      await Promise.all(
        part.map(({ at: _at, ...c }) => core.sequencer.submit(c as Submitted, undefined, { ack: 'journal' })),
      );
    }
    return { started, latencies: [] };
  });
  const size = (
    await pool.query(
      `select pg_total_relation_size('core_journal') as bytes, (select sum(commands) from core_journal) as commands`,
    )
  ).rows[0];
  const { startCore, newestSnapshot, readPosition } = await benchServer();
  /**
   * Starts the core on the database as it is; the time to ready and the commands it had to replay: the journal after
   * the snapshot a start rebuilds from (the newest no later than the tables, as the core's recovery chooses it), or
   * after the tables when there is none.
   */
  const start = async () => {
    const { projectedSeq } = await readPosition(pool);
    const from = (await newestSnapshot(pool, projectedSeq))?.seq ?? projectedSeq;
    const { rows } = await pool.query<{ replay: string }>(
      'select coalesce(sum(commands), 0) as replay from core_journal where seq > $1',
      [from],
    );
    const t0 = performance.now();
    const restarted = await startCore(pool, options);
    const ms = performance.now() - t0;
    await restarted.sequencer.tables.stop(new Error('bench over'));
    return { ms, replayed: Number(rows[0]!.replay) };
  };
  const afterStop = await start();
  await pool.query('delete from core_snapshots where seq = (select max(seq) from core_snapshots)');
  const afterCrash = await start();
  return {
    afterStop,
    afterCrash,
    journalCommands: Number(size.commands),
    bytesPerMillion: (Number(size.bytes) / Number(size.commands)) * 1e6,
  };
}

/**
 * Durable commands through the sequencer into PostgreSQL: the journal path (answered after the journal commit,
 * the tables projected behind), the write path of earlier versions (the effects written before the answer), and
 * the engine alone on the same stream.
 */
export async function durableBench(fresh: () => Promise<{ pool: pg.Pool }>, orders: number) {
  const onFreshDatabase = async <T>(work: (pool: pg.Pool) => Promise<T>) => {
    const { pool } = await fresh();
    try {
      return await work(pool);
    } finally {
      await pool.end();
    }
  };
  const rows: (string | number)[][] = [];
  const row = (label: string, r: DurableResult) =>
    rows.push([
      label,
      rate(r.ordersPerSecond),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      rate(r.maxLag),
      Math.round(r.catchUpMs),
      rate(r.projectedPerSecond),
    ]);
  const [engineRow] = (await runEngineBench({ mixedOps: orders, peer: false, print: false })).filter((r) =>
    r.workload.startsWith('mixed'),
  );
  rows.push([
    'engine alone (same stream, no durability)',
    rate(engineRow?.oursOpsPerSec ?? 0),
    '-',
    '-',
    '-',
    '-',
    '-',
  ]);
  for (const callers of [400, 2000])
    row(
      `journal: answered after its commit, ${callers} callers`,
      await onFreshDatabase((pool) => closedLoop(pool, orders, callers, JOURNAL)),
    );
  for (const perSecond of [50_000, 100_000])
    row(
      `journal: open loop, ${rate(perSecond)}/s offered for 10 s`,
      await onFreshDatabase((pool) => openLoop(pool, 10, perSecond, JOURNAL)),
    );
  row(
    'write-through (earlier versions), 400 callers',
    await onFreshDatabase((pool) => closedLoop(pool, orders, 400, WRITE_THROUGH)),
  );
  row(
    'write-through (earlier versions), open loop 15,000/s',
    await onFreshDatabase((pool) => openLoop(pool, 10, 15_000, WRITE_THROUGH)),
  );
  rows.push(['Peatio (published figure, not run here)', '60-125', '-', '-', '-', '-', '-']);
  printTable(
    `Durable commands through the sequencer into PostgreSQL (mixed stream of the engine bench, ${rate(orders)} commands per closed-loop run)`,
    ['path', 'commands/s', 'p50 ms', 'p99 ms', 'max lag', 'catch-up ms', 'projected/s'],
    rows,
  );
  console.log(
    'max lag: most commands in the journal and not yet in the tables; catch-up: from the last answer until the tables held everything; projected/s: commands over the run and its catch-up',
  );
  const recovered = await onFreshDatabase((pool) => recovery(pool, 1_000_000));
  const { afterStop, afterCrash } = recovered;
  console.log(
    `recovery, ${rate(recovered.journalCommands)} commands in the journal: a start after a clean stop replays ${rate(afterStop.replayed)} in ${Math.round(afterStop.ms)} ms; after a crash (no snapshot at the end) it replays ${rate(afterCrash.replayed)} in ${Math.round(afterCrash.ms)} ms; the journal takes ${(recovered.bytesPerMillion / 1e6).toFixed(1)} MB per million commands`,
  );
  return { rows, recovered };
}
