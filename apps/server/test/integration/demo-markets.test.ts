import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { DEMO_BOOKS } from '../../src/db/seed-data.ts';
import { DEMO_BOT_EMAILS } from '../../src/demo/accounts.ts';
import { SignedApiClient } from '../../src/demo/api-client.ts';
import { BOT_LEVELS, LiquidityBot } from '../../src/demo/bot.ts';
import { HISTORY_DAYS } from '../../src/demo/history.ts';
import { demoBot, seedDemoMarkets } from '../../src/demo/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let port: number;
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.db.pool.query(sql, params)).rows[0].n);

async function botIds(): Promise<{ maker: string; taker: string }> {
  const rows = await t.db.pool.query('select id, email from users where email = any($1)', [
    Object.values(DEMO_BOT_EMAILS),
  ]);
  const id = (email: string) => String(rows.rows.find((r) => r.email === email)?.id);
  return { maker: id(DEMO_BOT_EMAILS.maker), taker: id(DEMO_BOT_EMAILS.taker) };
}

describe('the demo markets', () => {
  it('get 90 days of trades through the core: real candles, a moving ticker, a conserved ledger, once', async () => {
    const bots = await seedDemoMarkets(t.deps.core, t.db.pool, t.deps.keys, [], quiet);
    for (const { market } of DEMO_BOOKS) {
      const trades = await count('select count(*) as n from trades where market_id = $1', [market]);
      expect(trades, market).toBeGreaterThan(5000);
      // Every trade is between the two bot accounts: the maker's limit order met by the taker's market order.
      const between = await count(
        'select count(*) as n from trades where market_id = $1 and maker_id = $2 and taker_id = $3',
        [market, bots.maker.id, bots.taker.id],
      );
      expect(between).toBe(trades);
    }
    const oldest = (await t.db.pool.query('select min(created_at) as at from trades')).rows[0].at as Date;
    expect(Date.now() - oldest.getTime()).toBeGreaterThan((HISTORY_DAYS - 1) * 86_400_000);

    // Daily candles cover the 90 days; the last five minutes of the hourly chart are not flat.
    const daily = await t.app.inject(`/api/v2/peatio/public/markets/btcusdt/k-line?period=1440&limit=200`);
    expect(daily.json().length).toBeGreaterThanOrEqual(HISTORY_DAYS);
    const tickers = (await t.app.inject('/api/v2/peatio/public/markets/tickers')).json();
    for (const { market } of DEMO_BOOKS) {
      const ticker = tickers[market].ticker;
      expect(Number(ticker.volume), market).toBeGreaterThan(0);
      expect(ticker.high, market).not.toBe(ticker.low);
    }
    expect(await auditLedger(t.db.pool)).toEqual([]);

    // A restart finds the history there and adds nothing.
    const before = await count('select count(*) as n from trades');
    const again = await seedDemoMarkets(t.deps.core, t.db.pool, t.deps.keys, [], quiet);
    expect(again).toEqual(bots);
    expect(await count('select count(*) as n from trades')).toBe(before);
  });

  it('has a bot that quotes levels and trades over the signed HTTP API, and logs what the API refuses', async () => {
    const bots = await seedDemoMarkets(t.deps.core, t.db.pool, t.deps.keys, [], quiet);
    const ids = await botIds();
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (m: string) => warnings.push(m) };
    const bot = demoBot({ ...t.deps.config, port }, t.deps.core, bots, log);
    for (let round = 0; round < 2; round++) {
      const since = new Date();
      await bot.tick();
      expect(warnings).toEqual([]);
      for (const { market } of DEMO_BOOKS) {
        const quoted = await t.db.pool.query(
          `select side, count(*)::int as n from orders where user_id = $1 and market_id = $2 and state = 'wait'
           group by side order by side`,
          [ids.maker, market],
        );
        // Every level was quoted; the taker's market order may then have taken the best one whole.
        const [buys, sells] = quoted.rows.map((r) => r.n as number);
        expect(
          [buys, sells].every((n) => n === BOT_LEVELS || n === BOT_LEVELS - 1),
          market,
        ).toBe(true);
        expect((buys ?? 0) + (sells ?? 0), market).toBeGreaterThanOrEqual(2 * BOT_LEVELS - 1);
        const traded = await count(
          'select count(*) as n from trades where market_id = $1 and taker_id = $2 and created_at >= $3',
          [market, ids.taker, since],
        );
        expect(traded, market).toBeGreaterThan(0);
      }
    }
    // Its requests are the API's like any program's: one signed with a wrong secret is refused, and said so.
    const refused: string[] = [];
    const forged = new LiquidityBot(
      new SignedApiClient(`http://127.0.0.1:${port}`, bots.maker.kid, 'not-the-secret'),
      new SignedApiClient(`http://127.0.0.1:${port}`, bots.taker.kid, 'not-the-secret'),
      [
        {
          id: 'btcusdt',
          pricePrecision: 1,
          amountPrecision: 5,
          reference: 650000n,
          step: 250n,
          volume: 5000n,
          minVolume: 1n,
        },
      ],
      1000,
      { warn: (m) => refused.push(m) },
    );
    const orders = await count('select count(*) as n from orders');
    await forged.tick();
    expect(refused.join('\n')).toContain('401 authz.invalid_signature');
    expect(await count('select count(*) as n from orders')).toBe(orders);
    expect(await auditLedger(t.db.pool)).toEqual([]);
  });
});
