import type pg from 'pg';
import type { AppDeps } from '../../apps/server/src/app-deps.ts';
import { composeApp } from '../../apps/server/src/compose.ts';
import { type Config, loadConfig } from '../../apps/server/src/config.ts';

/**
 * The configuration every bench section starts the app with: test mode, silent, no rate limits (every request
 * reaches what is measured) and no captcha, plus `env`.
 */
export function benchConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'false',
    CAPTCHA_TYPE: 'none',
    WEB_DIST: '/nonexistent',
    // No chains moving underneath: the figures are the request path's, not the wallet's background work.
    WALLET_POLL_MS: '0',
    SIM_BLOCK_MS: '0',
    EVM_DEVNET: 'false',
    ...env,
  });
}

/** The whole app over `pool`, listening on a loopback port; `base` is its URL. */
export async function startBenchApp(
  pool: pg.Pool,
  options: { env?: Record<string, string>; overrides?: Partial<AppDeps> } = {},
) {
  const { app, deps } = await composeApp(benchConfig(options.env), pool, options.overrides);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, deps, base };
}
