import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Config } from '../config.ts';
import type { Core } from '../core/index.ts';
import { seedDemoBooks } from '../db/seed.ts';
import { DEMO_BOOKS } from '../db/seed-data.ts';
import type { ServerKeys } from '../modules/identity/crypto.ts';
import { type BotAccounts, ensureBotAccounts } from './accounts.ts';
import { SignedApiClient } from './api-client.ts';
import { type BotMarket, LiquidityBot } from './bot.ts';
import { seedDemoHistory } from './seed-history.ts';

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Makes the demo markets alive on a fresh database: the bot accounts and their floats, 90 days of past trades
 * per market, then the demo book. Each step happens once; a restart finds it done.
 */
export async function seedDemoMarkets(
  core: Core,
  db: pg.Pool,
  keys: ServerKeys,
  demoUsers: { id: string }[],
  log: Log,
): Promise<BotAccounts> {
  const bots = await ensureBotAccounts(db, core, keys);
  const started = performance.now();
  const history = await seedDemoHistory(core, db, bots, Date.now());
  if (history.trades > 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    log.info(`seeded ${history.trades} past trades in ${history.markets.join(', ')} in ${seconds} s`);
  }
  for (const [code, count] of Object.entries(history.refused))
    log.warn(`demo history: the core refused ${count} orders: ${code}`);
  await seedDemoBooks(core, demoUsers);
  return bots;
}

/** The liquidity bot over the demo markets, signing with the bot accounts' keys against this server. */
export function demoBot(config: Config, core: Core, bots: BotAccounts, log: Log): LiquidityBot {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const markets: BotMarket[] = [];
  for (const book of DEMO_BOOKS) {
    const info = core.markets.get(book.market);
    if (!info) continue;
    markets.push({
      id: book.market,
      pricePrecision: info.pricePrecision,
      amountPrecision: info.amountPrecision,
      reference: toUnits(book.mid, info.pricePrecision),
      step: toUnits(book.step, info.pricePrecision),
      volume: toUnits(book.volume, info.amountPrecision),
      minVolume: toUnits(info.minAmount, info.amountPrecision),
    });
  }
  return new LiquidityBot(
    new SignedApiClient(base, bots.maker.kid, bots.maker.secret),
    new SignedApiClient(base, bots.taker.kid, bots.taker.secret),
    markets,
    config.demoBot.intervalMs,
    log,
  );
}
