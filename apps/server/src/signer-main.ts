import { createPool } from './db/pool.ts';
import { createLogger, lifecycleLogger } from './log.ts';
import { loadSignerConfig } from './modules/signer/config.ts';
import { startSigner } from './modules/signer/start.ts';

/**
 * The signer role (`ROLE=signer`): holds the seed and signs what its policy allows, behind its own port. It runs
 * alone in its process; in the one-process default the app starts it as a child process, so the process that
 * faces the internet never holds the seed or its key. Needs `DATABASE_URL` (the withdrawals it checks, the log it
 * writes) and `SIGNER_TOKEN`.
 */
async function main(): Promise<void> {
  const log = lifecycleLogger(
    createLogger({
      level: process.env.LOG_LEVEL ?? 'info',
      format:
        (process.env.LOG_FORMAT ?? (process.env.NODE_ENV === 'production' ? 'json' : 'text')) === 'json'
          ? 'json'
          : 'text',
    }),
    'signer',
  );
  const config = loadSignerConfig();
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required by the signer');
  const db = createPool(url, 4);
  const served = await startSigner(config, db, log);
  // Started by the app: tell it where we listen.
  process.send?.({ signer: served.url });
  const stop = async () => {
    await served.close();
    await db.end().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The parent went away (its IPC channel closed): a signer must not outlive the app that started it.
  process.on('disconnect', () => void stop());
}

main().catch((err) => {
  console.error(`signer: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
