import type { Command } from '@exchange/engine';
import type pg from 'pg';
import { type Core, startCore } from '../../apps/server/src/core/index.ts';
import type { Submitted } from '../../apps/server/src/core/sequencer.ts';
import { genMixed } from '../../packages/engine/bench/engine-bench.ts';
import { percentile, printTable, rate } from './stats.ts';

interface DurableResult {
  ordersPerSecond: number;
  p50: number;
  p99: number;
}

/**
 * Replays the engine benchmark's mixed stream (70% limit orders around a random-walk mid, 20% cancels of live
 * orders, 10% market orders; 1,000 funded users) through the sequencer with `concurrency` callers, each waiting
 * for the durable acknowledgement. Commands are submitted in stream order, so order ids match the stream's.
 */
async function setUp(pool: pg.Pool, count: number, maxBatch: number) {
  const stream = genMixed(count, 42).cmds;
  await pool.query(
    `insert into users (id, uid, email, password_digest, level, state)
     select g, 'IDBENCH' || g, 'bench' || g || '@bench.test', 'x', 2, 'active' from generate_series(1, 1000) g`,
  );
  const core = await startCore(pool, { maxBatch });
  await Promise.all(
    Array.from({ length: 1000 }, (_, i) =>
      Promise.all([
        core.sequencer.submit({
          type: 'Credit',
          user: i + 1,
          currency: 'usdt',
          amount: 10n ** 20n,
          kind: 'deposit',
        }),
        core.sequencer.submit({
          type: 'Credit',
          user: i + 1,
          currency: 'btc',
          amount: 10n ** 18n,
          kind: 'deposit',
        }),
      ]),
    ),
  );
  return { stream, core };
}

async function run(
  pool: pg.Pool,
  count: number,
  concurrency: number,
  maxBatch: number,
): Promise<DurableResult> {
  const { stream, core } = await setUp(pool, count, maxBatch);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < stream.length) {
      const { at: _at, ...command } = stream[next++] as Command;
      const t0 = performance.now();
      await core.sequencer.submit(command as Submitted);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return finish(core, stream.length, started, latencies);
}

/**
 * Open loop: commands arrive at a fixed `perSecond` whatever the answers do, the way independent clients send
 * them, and each latency is timed from when its command was due, not from when the loop got round to sending it,
 * so a stall counts against every command it delayed. The first second warms up (JIT, caches) and is not timed;
 * throughput is what was acknowledged over the whole run.
 */
async function runAtRate(pool: pg.Pool, seconds: number, perSecond: number): Promise<DurableResult> {
  const { stream, core } = await setUp(pool, Math.round(seconds * perSecond), 5000);
  const latencies: number[] = [];
  const started = performance.now();
  const timedFrom = started + 1000;
  let next = 0;
  let answered = 0;
  await new Promise<void>((done, failed) => {
    // Only a count of answers is kept, not a promise per command: the generator should not feed the GC.
    const answer = (dueAt: number) => () => {
      if (dueAt >= timedFrom) latencies.push(performance.now() - dueAt);
      if (++answered === stream.length) done();
    };
    const tick = () => {
      const due = Math.min(stream.length, Math.floor(((performance.now() - started) * perSecond) / 1000));
      for (; next < due; next++) {
        const { at: _at, ...command } = stream[next] as Command;
        const dueAt = started + (next * 1000) / perSecond;
        core.sequencer.submit(command as Submitted).then(answer(dueAt), failed);
      }
      if (next < stream.length) setTimeout(tick, 1);
    };
    tick();
  });
  return finish(core, stream.length, started, latencies);
}

/** Throughput over the run (all `count` commands answered since `started`) and the latency percentiles. */
async function finish(
  core: Core,
  count: number,
  started: number,
  latencies: number[],
): Promise<DurableResult> {
  const seconds = (performance.now() - started) / 1000;
  await core.sequencer.drain();
  return {
    ordersPerSecond: count / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * Durable order throughput through the sequencer into PostgreSQL, acknowledged after commit: our group commit
 * against the same code committing every order in its own transaction (the per-order write of the peer).
 */
export async function durableBench(fresh: () => Promise<{ pool: pg.Pool }>, orders: number) {
  // Closed loops: each caller waits for its acknowledgement before sending the next command, so by Little's law
  // latency >= callers / throughput. Batches of at most half the callers: one is applied and encoded while the
  // other is written; one batch of all callers would leave nothing to overlap with its write.
  const onFreshDatabase = async (work: (pool: pg.Pool) => Promise<DurableResult>) => {
    const { pool } = await fresh();
    try {
      return await work(pool);
    } finally {
      await pool.end();
    }
  };
  const curve: { callers: number; ours: DurableResult }[] = [];
  for (const callers of [200, 400, 1000]) {
    curve.push({ callers, ours: await onFreshDatabase((pool) => run(pool, orders, callers, callers / 2)) });
  }
  const offered: { perSecond: number; ours: DurableResult }[] = [];
  for (const perSecond of [15_000, 20_000]) {
    offered.push({ perSecond, ours: await onFreshDatabase((pool) => runAtRate(pool, 10, perSecond)) });
  }
  const perOrder = await onFreshDatabase((pool) => run(pool, Math.min(orders, 3000), 64, 1));
  const row = (label: string, r: DurableResult) => [
    label,
    rate(r.ordersPerSecond),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
  ];
  printTable(
    `Durable commands through the sequencer into PostgreSQL, acknowledged after commit (mixed stream of the engine bench, ${rate(orders)} commands per run)`,
    ['system', 'commands/s', 'p50 ms', 'p99 ms'],
    [
      ...curve.map(({ callers, ours }) =>
        row(`ours: group commit, ${callers} callers, batches <= ${callers / 2}`, ours),
      ),
      ...offered.map(({ perSecond, ours }) =>
        row(`ours: open loop, ${rate(perSecond)}/s offered for 10 s (first 1 s untimed)`, ours),
      ),
      row('same code, one commit per order, 64 callers', perOrder),
      ['Peatio (published figure, not run here)', '60-125', '-', '-'],
    ],
  );
  const best = Math.max(...curve.map((c) => c.ours.ordersPerSecond));
  console.log(
    `ratio best group commit / one commit per order: ${(best / perOrder.ordersPerSecond).toFixed(1)}x`,
  );
  return { curve, offered, perOrder };
}
