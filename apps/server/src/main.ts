import { scheduleBackups } from './backup/schedule.ts';
import { composeApp } from './compose.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { startCore } from './core/index.ts';
import { openDatabase } from './db/database.ts';
import { creditDemoBalances, seedDemoWallet } from './db/seed.ts';
import { demoBot, seedDemoMarkets } from './demo/index.ts';
import { devToolsExposureWarning } from './http/loopback.ts';
import { loadServerKeys } from './modules/identity/crypto.ts';

/** Starts everything in one process: database, APIs, websocket gateway and the web app. */
async function main(): Promise<void> {
  const started = performance.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m) };
  const database = await openDatabase(config, log);
  // A lost database only pauses the core (commands get 503) until it has reloaded itself from the database;
  // anything else that breaks a commit is a bug, and a fresh start is the one recovery that is known to be right.
  const core = await startCore(database.pool, {}, (err) => {
    log.warn(`${err.message}; exiting so that a restart recovers from the database`);
    process.exit(70);
  });
  core.sequencer.onRecovered(({ seq }) =>
    log.info(`exchange core reloaded from the database at batch ${seq}`),
  );
  await creditDemoBalances(core, database.demoUsers);
  const keys = await loadServerKeys(database.pool, config.secretKey);
  const bots = config.demoBooks
    ? await seedDemoMarkets(core, database.pool, keys, database.demoUsers, log)
    : undefined;
  const { app, deps } = await composeApp(config, database.pool, { core, keys });
  if (database.demoUsers.length > 0) await seedDemoWallet(core, deps.wallet, database.pool, deps.keys);

  const bot = bots && config.demoBot.enabled ? demoBot(config, core, bots, log) : undefined;
  const backups = scheduleBackups(
    config.backup,
    {
      pool: database.pool,
      url: database.url,
      ...(database.embedded ? { dataDir: config.dataDir } : {}),
    },
    log,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await bot?.stop();
    await backups?.stop();
    await app.close().catch((err) => log.warn(`closing http: ${String(err)}`));
    await core.sequencer.drain();
    await database.close().catch((err) => log.warn(`closing database: ${String(err)}`));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (bot) {
    bot.start();
    log.info(`demo liquidity bot trading every ${config.demoBot.intervalMs} ms (DEMO_BOT=off stops it)`);
  }
  const exposed = devToolsExposureWarning(config);
  if (exposed) log.warn(exposed);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  log.info(
    `\nExchange is running on http://${displayHost(config.host)}:${config.port} (ready in ${seconds} s)`,
  );
  log.info(`Database: ${database.embedded ? `embedded PostgreSQL in ${config.dataDir}/pg` : 'DATABASE_URL'}`);
  if (database.demoUsers.length > 0) {
    log.info(
      `Demo users: ${database.demoUsers.map((u) => u.email).join(', ')}  password: ${config.demoPassword}`,
    );
  }
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
