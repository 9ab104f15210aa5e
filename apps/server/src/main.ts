import type { Registry } from 'prom-client';
import { scheduleBackups } from './backup/schedule.ts';
import { composeApp } from './compose.ts';
import { simulatorSchemas } from './compose-schemas.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { holdLock } from './core/lease.ts';
import { startProcessCore } from './core/start.ts';
import { openDatabase } from './db/database.ts';
import { APP_ROLE } from './db/embedded-roles.ts';
import { jobLock } from './db/locks.ts';
import { creditDemoBalances, seedDemoWallet } from './db/seed.ts';
import { demoBot, seedDemoMarkets } from './demo/index.ts';
import { DEMO_STAFF_EMAIL, ensureDemoStaff } from './demo/staff.ts';
import { devToolsExposureWarning } from './http/loopback.ts';
import { createLogger, lifecycleLogger } from './log.ts';
import { seedDemoSanctionsList } from './modules/compliance/sanctions/import.ts';
import { loadServerKeys } from './modules/identity/crypto.ts';
import { serveMetrics, startingMetrics } from './modules/metrics/registry.ts';
import { startSignerChild } from './modules/signer/child.ts';
import { freePort } from './net/free-port.ts';
import { type CountryLookup, countryLookupFor } from './net/geo-country.ts';
import { announceRunningApp, runtimeDir } from './runtime-registry.ts';

/** Starts everything in one process: database, APIs, websocket gateway and the web app. */
async function main(): Promise<void> {
  const started = performance.now();
  // The signer runs alone in its process (ROLE=signer): it holds the seed, and nothing else runs beside it.
  if (process.env.ROLE?.trim() === 'signer') {
    await import('./signer-main.ts');
    return;
  }
  let config: Config;
  let geoCountry: CountryLookup;
  try {
    config = loadConfig();
    // GEOIP_COUNTRY_DB is read here, so a missing or bad file stops the start before the database is opened.
    geoCountry = countryLookupFor(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // One logger for the process (LOG_LEVEL, LOG_FORMAT); its life's lines through a child of its own.
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const log = lifecycleLogger(logger, 'main');
  // Metrics from the start: a standby core waiting for the lease is seen too; the full ones once composed.
  let metrics: Registry = startingMetrics();
  const metricsServer = config.metrics
    ? await serveMetrics(() => metrics, config.metrics.port, config.metrics.host)
    : undefined;
  // The simulators' own tables beside the exchange's, when the configuration mounts any (none with real providers).
  const database = await openDatabase(config, lifecycleLogger(logger, 'database'), {
    schemas: await simulatorSchemas(config),
  });
  // The signer: elsewhere (SIGNER_URL), or a child process of ours, so this process never holds the seed. It
  // boots while the core recovers and the app composes itself.
  const signer =
    config.chains.signer || (config.split && !config.roles.has('worker'))
      ? undefined
      : startSignerChild({
          databaseUrl: database.url,
          dataDir: config.dataDir,
          port: await freePort(),
          log: lifecycleLogger(logger, 'signer'),
        });
  // A failed start is reported where it is awaited.
  signer?.ready.catch(() => {});
  if (signer)
    config = { ...config, chains: { ...config.chains, signer: { url: signer.url, token: signer.token } } };
  // A lost database only pauses the core (commands get 503) until it has reloaded itself from the database;
  // anything else that breaks a commit is a bug, and a fresh start is the one recovery that is known to be right.
  /**
   * Exits with `code` after stopping the embedded PostgreSQL (within 10 s), so that no server is left running
   * without its app: the supervisor's restart (or the operator's) starts both again.
   */
  const exitStoppingDatabase = async (code: number): Promise<never> => {
    await Promise.race([
      database.close().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
    ]);
    process.exit(code);
  };
  const processCore = await startProcessCore(
    config,
    database.pool,
    database.url,
    lifecycleLogger(logger, 'core'),
    (err) => {
      log.warn(`${err.message}; exiting so that a restart recovers from the database`);
      void exitStoppingDatabase(70);
    },
  );
  const { core, active } = processCore;
  const keys = await loadServerKeys(database.pool, config.secretKey);
  // A staff user for the console, in development only (SEED_DEMO is off in production unless asked for).
  const staffSecret =
    config.seedDemo && config.env !== 'production' && active
      ? await ensureDemoStaff(database.pool, keys, config.demoPassword)
      : undefined;
  // The made-up sanctions list, so that screening has something to match in development and the demo.
  if (active && config.seedDemo && config.env !== 'production') await seedDemoSanctionsList(database.pool);
  // Demo money and history go through the active core, once; the other roles find them there.
  if (active) await creditDemoBalances(active, database.demoUsers);
  const bots =
    active && config.demoBooks
      ? await seedDemoMarkets(
          active,
          database.pool,
          keys,
          database.demoUsers,
          lifecycleLogger(logger, 'demo'),
        )
      : undefined;
  const { app, deps, jobs } = await composeApp(
    config,
    database.pool,
    { core, keys, logger, geoCountry },
    processCore.nats,
  );
  // The demo wallet needs the hot wallets' keys, which a signer starting for the first time publishes.
  if (signer) {
    await signer.ready;
    log.info(`signer: a child process on ${signer.url}`);
  }
  if (active && database.demoUsers.length > 0) await seedDemoWallet(active, deps.wallet, database.pool);
  const jobLocks: { release(): Promise<void> }[] = [];
  if (config.split && config.roles.has('worker')) {
    // Each job runs in one worker at a time: the first to take its lock runs it, the others wait for it.
    for (const [i, [name, start]] of Object.entries(jobs).entries()) {
      void holdLock(database.url, jobLock(i), name, log, () => {
        log.warn(`worker: the lock of the ${name} job was lost; exiting so that another worker takes over`);
        void exitStoppingDatabase(70);
      }).then(async (lock) => {
        jobLocks.push(lock);
        await start();
        log.info(`worker: running the ${name} job`);
      });
    }
  }

  const bot =
    bots && config.demoBot.enabled ? demoBot(config, core, bots, lifecycleLogger(logger, 'demo')) : undefined;
  // Scheduled backups belong to the background work: a worker in a split deployment, or the one process.
  const backups =
    (!config.split || config.roles.has('worker')) &&
    scheduleBackups(
      config.backup,
      {
        pool: database.pool,
        // The superuser of the embedded server (a base backup needs it), or the owner of an external one.
        url: database.adminUrl,
        ...(database.embedded ? { dataDir: config.dataDir } : {}),
      },
      lifecycleLogger(logger, 'backup'),
    );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await bot?.stop();
    metricsServer?.close();
    if (backups) await backups.stop();
    await app.close().catch((err) => log.warn(`closing http: ${String(err)}`));
    for (const lock of jobLocks) await lock.release();
    await processCore.stop();
    await signer?.stop();
    await database.close().catch((err) => log.warn(`closing database: ${String(err)}`));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // The standby's health page has reported the takeover's progress on this port until now.
  await processCore.recovering?.close();
  await app.listen({ port: config.port, host: config.host });
  metrics = app.metrics;
  // The command line finds this app's database and port through its announcement (runtime-registry.ts).
  const address = app.server.address();
  const withdrawAnnouncement = await announceRunningApp(runtimeDir(process.env), {
    dataDir: database.embedded ? config.dataDir : null,
    port: typeof address === 'object' && address ? address.port : config.port,
  }).catch((err) => {
    log.warn(`the command line will not find this app by itself: ${String(err)}`);
    return () => {};
  });
  process.on('exit', withdrawAnnouncement);
  if (config.metrics) log.info(`metrics: http://${config.metrics.host}:${config.metrics.port}/metrics`);
  if (bot) {
    bot.start();
    log.info(`demo liquidity bot trading every ${config.demoBot.intervalMs} ms (DEMO_BOT=off stops it)`);
  }
  const exposed = devToolsExposureWarning(config);
  if (exposed) log.warn(exposed);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  log.info(
    `\nExchange is running on http://${displayHost(config.host)}:${config.port} (ready in ${seconds} s${config.split ? `; roles ${[...config.roles].join(', ')}` : ''})`,
  );
  log.info(
    `Database: ${database.embedded ? `embedded PostgreSQL in ${config.dataDir}/pg (the app connects as ${APP_ROLE})` : 'DATABASE_URL'}`,
  );
  if (database.demoUsers.length > 0) {
    log.info(
      `Demo users: ${database.demoUsers.map((u) => u.email).join(', ')}  password: ${config.demoPassword}`,
    );
  }
  if (staffSecret) {
    log.info(
      `Demo staff: ${DEMO_STAFF_EMAIL} (superadmin, same password) opens /admin with an authenticator code: TOTP secret ${staffSecret} (oathtool --totp -b ${staffSecret})`,
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
