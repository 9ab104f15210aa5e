import type pg from 'pg';
import { startCore } from '../../apps/server/src/core/index.ts';
import { plainUser } from '../../apps/server/test/support/core.ts';
import { percentile, printTable, rate } from './stats.ts';

interface DurableResult {
  ordersPerSecond: number;
  p50: number;
  p99: number;
  orders: number;
}

/** Places `count` limit orders with `concurrency` callers waiting for durable acknowledgement. */
async function run(
  pool: pg.Pool,
  count: number,
  concurrency: number,
  maxBatch: number,
): Promise<DurableResult> {
  const users: number[] = [];
  for (let i = 0; i < 8; i++) users.push(await plainUser(pool, `bench${maxBatch}-${i}@bench.test`));
  const core = await startCore(pool, { maxBatch });
  for (const user of users) {
    await core.sequencer.submit({
      type: 'Credit',
      user,
      currency: 'eth',
      amount: 10n ** 26n,
      kind: 'deposit',
    });
    await core.sequencer.submit({
      type: 'Credit',
      user,
      currency: 'btc',
      amount: 10n ** 16n,
      kind: 'deposit',
    });
  }
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      await core.sequencer.submit({
        type: 'PlaceOrder',
        user: users[i % users.length] as number,
        market: 'ethbtc',
        side: i % 2 === 0 ? 'buy' : 'sell',
        ordType: 'limit',
        price: 5000n + BigInt((i * 7919) % 41) - 20n,
        volume: 1000n + BigInt(i % 5) * 1000n,
      });
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    ordersPerSecond: count / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    orders: count,
  };
}

/**
 * Durable order throughput through the sequencer into PostgreSQL, acknowledged after commit: our group commit
 * against the same code committing every order in its own transaction (the per-order write of the peer).
 */
export async function durableBench(fresh: () => Promise<{ pool: pg.Pool }>, orders: number) {
  const ours = await run((await fresh()).pool, orders, 2000, 5000);
  const perOrder = await run((await fresh()).pool, Math.min(orders, 3000), 64, 1);
  printTable(
    `Durable orders through the sequencer into PostgreSQL (acknowledged after commit, ${rate(orders)} orders)`,
    ['system', 'orders/s', 'p50 ms', 'p99 ms'],
    [
      ['ours: group commit', rate(ours.ordersPerSecond), ours.p50.toFixed(1), ours.p99.toFixed(1)],
      [
        'same code, one commit per order',
        rate(perOrder.ordersPerSecond),
        perOrder.p50.toFixed(1),
        perOrder.p99.toFixed(1),
      ],
      ['Peatio (published figure, not run here)', '60-125', '-', '-'],
    ],
  );
  console.log(
    `ratio group commit / one commit per order: ${(ours.ordersPerSecond / perOrder.ordersPerSecond).toFixed(1)}x`,
  );
  return { ours, perOrder };
}
