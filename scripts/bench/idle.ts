import { startTestSigner } from '@exchange/server/harness';
import type pg from 'pg';
import { benchServer } from './bench-app.ts';
import { printTable } from './stats.ts';

const WINDOW_MS = 10_000;

/** PostgreSQL transactions per second in the app's database while nobody uses the exchange. */
async function idleRate(
  pool: pg.Pool,
  env: Record<string, string>,
): Promise<{ tps: number; busiest: string }> {
  const signer = await startTestSigner(pool);
  const { composeApp, loadConfig } = await benchServer();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    CAPTCHA_TYPE: 'none',
    SIGNER_URL: signer.url,
    SIGNER_TOKEN: signer.token,
    ...env,
  });
  // One process: composeApp starts every background job itself.
  const { app, deps } = await composeApp(config, pool);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Settled: deposit addresses, hot wallets and first passes are behind us. PostgreSQL's backends report their
  // counters lazily (an idle one up to 10 s later), so a shorter wait counted the start-up's own transactions
  // inside the window (about 7 a second of the 10.5 once measured here).
  await new Promise((r) => setTimeout(r, 11_000));
  const count = async () =>
    Number(
      (
        await pool.query(
          'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
        )
      ).rows[0].n,
    );
  await pool.query('select pg_stat_reset()');
  await new Promise((r) => setTimeout(r, 700));
  const before = await count();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  // The two reads of the counter are transactions too.
  const tps = (await count()) - before - 1;
  const seconds = (performance.now() - started) / 1000;
  const busiest = (
    await pool.query(
      `select relname from pg_stat_user_tables where seq_scan + coalesce(idx_scan, 0) > 0
        order by seq_scan + coalesce(idx_scan, 0) desc limit 4`,
    )
  ).rows
    .map((r) => r.relname)
    .join(', ');
  await app.close();
  await deps.core.sequencer.drain();
  await signer.close();
  return { tps: tps / seconds, busiest };
}

/**
 * Idle means idle: the database's transactions per second of a one-process exchange with no client, in the demo
 * configuration (simulated chains mining a block a second, simulated KYC and card providers polling their
 * outboxes) and with the chains' simulators mining nothing (what our own background work costs).
 */
export async function idleBench(fresh: () => Promise<{ pool: pg.Pool }>) {
  const demo = await fresh();
  const withBlocks = await idleRate(demo.pool, {});
  await demo.pool.end();
  const still = await fresh();
  const noBlocks = await idleRate(still.pool, { SIM_BLOCK_MS: '0' });
  await still.pool.end();
  printTable(
    `An idle exchange (one process, no client, ${WINDOW_MS / 1000} s)`,
    ['configuration', 'transactions/s', 'most read tables'],
    [
      ['demo: simulated chains mine a block a second', withBlocks.tps.toFixed(1), withBlocks.busiest],
      ['simulated chains mine nothing', noBlocks.tps.toFixed(1), noBlocks.busiest],
    ],
  );
  return { withBlocks, noBlocks };
}
