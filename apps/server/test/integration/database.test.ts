import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { startCore } from '../../src/core/index.ts';
import { migrate } from '../../src/db/migrate.ts';
import { creditDemoBalances, seedDemoBooks, seedDemoUsers, seedReferenceData } from '../../src/db/seed.ts';
import { DEMO_BALANCES, DEMO_USERS, SEED_MARKETS } from '../../src/db/seed-data.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const count = async (table: string) =>
  (await db.pool.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;

describe('migrations', () => {
  it('are recorded and not applied twice, even when two migrators race', async () => {
    const before = await count('schema_migrations');
    expect(before).toBeGreaterThan(0);
    const [a, b] = await Promise.all([migrate(db.ownerPool), migrate(db.ownerPool)]);
    expect([...a, ...b]).toEqual([]);
    expect(await count('schema_migrations')).toBe(before);
  });
});

describe('seed', () => {
  it('has the markets, currencies and the default maker fee', async () => {
    const markets = (await db.pool.query('select id from markets order by position')).rows.map((r) => r.id);
    expect(markets).toEqual(SEED_MARKETS.map((m) => m.id));
    expect(markets[0]).toBe('ethbtc');
    const currencies = (await db.pool.query('select id from currencies')).rows.map((r) => r.id).sort();
    expect(currencies).toEqual(['btc', 'eth', 'eur', 'trx', 'usdt']);
    const usdtNetworks = await db.pool.query(
      `select blockchain_key from currency_networks where currency_id = 'usdt'`,
    );
    expect(usdtNetworks.rowCount).toBeGreaterThan(1);
    const fee = await db.pool.query(
      `select maker from trading_fees where market_id = 'any' and "group" = 'any'`,
    );
    expect(fee.rows[0].maker).toBe('0.001000');
  });

  it('keeps price * amount exact in quote units for every market', async () => {
    const rows = await db.pool.query(
      `select m.id, m.price_precision + m.amount_precision as total, q.precision as quote, m.amount_precision,
         b.precision as base
       from markets m join currencies q on q.id = m.quote_unit join currencies b on b.id = m.base_unit`,
    );
    for (const r of rows.rows) {
      expect(r.total, r.id).toBeLessThanOrEqual(r.quote);
      expect(r.amount_precision, r.id).toBeLessThanOrEqual(r.base);
    }
  });

  it('is idempotent: demo users are active (alice level 3, identity verified; bob level 2) and get their balances once, through the core', async () => {
    await seedReferenceData(db.pool);
    const users = await seedDemoUsers(db.pool, 'Demo-pass-2026!');
    await creditDemoBalances(await startCore(db.pool), users);
    const snapshot = async () => ({
      users: await count('users'),
      markets: await count('markets'),
      networks: await count('currency_networks'),
      postings: await count('ledger_postings'),
      balances: await count('balances'),
    });
    const first = await snapshot();
    await seedReferenceData(db.pool);
    const again = await seedDemoUsers(db.pool, 'Demo-pass-2026!');
    expect(again).toEqual(users);
    await creditDemoBalances(await startCore(db.pool), again);
    expect(await snapshot()).toEqual(first);

    const rows = await db.pool.query(`select * from users order by id`);
    expect(rows.rows.map((u) => u.email)).toEqual(DEMO_USERS.map((u) => u.email));
    for (const user of rows.rows) {
      const verified = DEMO_USERS.find((u) => u.email === user.email)?.identityVerified;
      expect(user).toMatchObject({ state: 'active', level: verified ? 3 : 2 });
      expect(user.password_digest).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const labels = await db.pool.query('select key, value from labels where user_id = $1 order by key', [
        user.id,
      ]);
      expect(labels.rows).toEqual([
        ...(verified
          ? [
              { key: 'basic-kyc-level', value: 'verified' },
              { key: 'document', value: 'verified' },
            ]
          : []),
        { key: 'email', value: 'verified' },
        { key: 'phone', value: 'verified' },
      ]);
      const balances = await db.pool.query(
        'select currency_id, trim_scale(balance)::text as balance from balances where user_id = $1 order by currency_id',
        [user.id],
      );
      expect(Object.fromEntries(balances.rows.map((b) => [b.currency_id, b.balance]))).toEqual(DEMO_BALANCES);
    }
  });

  it('gives every market a demo book once, from the demo users, with the ledger exact', async () => {
    const users = await seedDemoUsers(db.pool, 'Demo-pass-2026!');
    const core = await startCore(db.pool);
    await seedDemoBooks(core, users);
    const count = async () =>
      (await db.pool.query('select count(*)::int as n from orders')).rows[0].n as number;
    const placed = await count();
    expect(placed).toBe(SEED_MARKETS.length * 11);
    await seedDemoBooks(await startCore(db.pool), users);
    expect(await count()).toBe(placed);
    const trades = await db.pool.query('select market_id from trades order by market_id');
    expect(trades.rows.map((r) => r.market_id)).toEqual([...SEED_MARKETS.map((m) => m.id)].sort());
    expect(core.sequencer.state.depth('ethbtc').bids).toHaveLength(5);
  });

  it('conserves money: the audit finds every currency balanced and every balance equal to its postings', async () => {
    expect(await count('ledger_postings')).toBeGreaterThan(0);
    expect(await auditLedger(db.pool)).toEqual([]);
  });
});
