import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { plainUser } from '@exchange/server/harness';
import type pg from 'pg';
import { benchServer, startBenchApp } from './bench-app.ts';
import { percentile, printTable, rate } from './stats.ts';

const CLIENTS = fileURLToPath(new URL('./ws-clients.ts', import.meta.url));

/**
 * Websocket fan-out: `clients` connections (in a second process) on one market's trades and order book while
 * trades flow; reports frames delivered per second and the delay from commit to each client receiving a trade.
 */
export async function wsBench(
  fresh: () => Promise<{ pool: pg.Pool }>,
  clients = 5000,
  seconds = 10,
  tradesPerSecond = 10,
  processes = 2,
) {
  const { pool } = await fresh();
  // The commit time is taken by a listener registered before the app's own (which fans the batch out), so the
  // delay measured runs from the end of the commit, not from the end of the fan-out.
  const { startCore } = await benchServer();
  const core = await startCore(pool);
  const committed = new Map<number, number>();
  core.sequencer.onCommitted((batch) => {
    const now = performance.timeOrigin + performance.now();
    for (const r of batch.results) for (const e of r.events) if (e.type === 'Trade') committed.set(e.id, now);
  });
  const { app, deps, base: httpBase } = await startBenchApp(pool, { overrides: { core } });
  const base = httpBase.replace('http', 'ws');
  const seller = await plainUser(pool, 'ws-seller@bench.test');
  const buyer = await plainUser(pool, 'ws-buyer@bench.test');
  await deps.core.sequencer.submit({
    type: 'Credit',
    user: seller,
    currency: 'eth',
    amount: 10n ** 24n,
    kind: 'deposit',
  });
  await deps.core.sequencer.submit({
    type: 'Credit',
    user: buyer,
    currency: 'btc',
    amount: 10n ** 16n,
    kind: 'deposit',
  });
  // The clients live in `processes` processes of their own, so that reading 5,000 sockets is not one event loop's
  // queue (the delay measured is the server's, as far as two shared cores allow).
  const children = Array.from({ length: processes }, () =>
    spawn(
      process.execPath,
      ['--import', 'tsx', CLIENTS, base, String(clients / processes), String(seconds)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const outs = children.map(() => '');
  for (const [i, child] of children.entries()) {
    child.stdout.on('data', (c) => {
      outs[i] += c.toString();
    });
  }
  while (!outs.every((o) => o.includes('ready'))) await new Promise((r) => setTimeout(r, 50));

  // An open loop at a fixed rate: every 1/tradesPerSecond s a resting sell and a market buy that takes it, sent
  // together (they commit in that order, usually in one batch) without waiting for the previous pair.
  const started = performance.now();
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < seconds * tradesPerSecond; i++) {
    const due = started + (i * 1000) / tradesPerSecond;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    sent.push(
      deps.core.sequencer.submit({
        type: 'PlaceOrder',
        user: seller,
        market: 'ethbtc',
        side: 'sell',
        ordType: 'limit',
        price: 3500n,
        volume: 1000n,
      }),
      deps.core.sequencer.submit({
        type: 'PlaceOrder',
        user: buyer,
        market: 'ethbtc',
        side: 'buy',
        ordType: 'market',
        volume: 1000n,
      }),
    );
  }
  await Promise.all(sent);
  await new Promise((r) => setTimeout(r, 1000));
  const exited = children.map((child) => new Promise((r) => child.once('exit', r)));
  for (const child of children) child.stdin.write('done\n');
  await Promise.all(exited);
  const reports = outs.map(
    (out) =>
      JSON.parse(out.slice(out.indexOf('{'))) as {
        frames: number;
        open: number;
        trades: [number, number[]][];
      },
  );
  const report = {
    frames: reports.reduce((n, r) => n + r.frames, 0),
    open: reports.reduce((n, r) => n + r.open, 0),
  };
  const byTrade = new Map<number, number[]>();
  for (const r of reports)
    for (const [tid, times] of r.trades) byTrade.set(tid, [...(byTrade.get(tid) ?? []), ...times]);
  const medians: number[] = [];
  const tails: number[] = [];
  const delays: number[] = [];
  for (const [tid, times] of byTrade) {
    const at = committed.get(tid);
    if (at === undefined) continue;
    for (const t of times) delays.push(t - at);
    medians.push(percentile(times, 50) - at);
    tails.push(percentile(times, 99) - at);
  }
  await app.close();
  await pool.end();
  printTable(
    `Websocket fan-out: ${rate(report.open)} clients (in ${processes} processes) on ethbtc.trades + ethbtc.ob-inc, ${tradesPerSecond} trades/s offered for ${seconds} s`,
    ['measure', 'value'],
    [
      ['frames delivered per second', rate(report.frames / seconds)],
      ['trades committed', rate(committed.size)],
      ['trade deliveries (trades x clients)', rate(delays.length)],
      ['commit -> client delay over all deliveries, p50 ms', percentile(delays, 50).toFixed(1)],
      ['commit -> client delay over all deliveries, p99 ms', percentile(delays, 99).toFixed(1)],
      [
        'commit -> client delay, median over trades of each trade median, ms',
        percentile(medians, 50).toFixed(1),
      ],
      ['commit -> client delay, p99 over trades of each trade p99, ms', percentile(tails, 99).toFixed(1)],
    ],
  );
}
