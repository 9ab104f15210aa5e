import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { startCore } from '../../src/core/index.ts';
import { verifyJournal } from '../../src/core/journal/verify.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const DRIVER = fileURLToPath(new URL('../support/crash-driver.ts', import.meta.url));
let db: TestDatabase;
let users: number[];

beforeAll(async () => {
  db = await createTestDatabase();
  users = [];
  for (let i = 0; i < 6; i++) users.push(await plainUser(db.pool, `crash${i}@core.test`));
  const core = await startCore(db.pool);
  for (const user of users) {
    await core.sequencer.submit({
      type: 'Credit',
      user,
      currency: 'eth',
      amount: 10n ** 24n,
      kind: 'deposit',
    });
    await core.sequencer.submit({
      type: 'Credit',
      user,
      currency: 'btc',
      amount: 10n ** 14n,
      kind: 'deposit',
    });
  }
});
afterAll(() => db.drop());

describe('crash safety', () => {
  it('loses nothing acknowledged and half-applies nothing when killed with SIGKILL mid-stream', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', DRIVER, db.url, users.join(',')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c.toString();
    });
    child.stderr.on('data', (c) => {
      err += c.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 60_000;
    while ((out.match(/^ack /gm)?.length ?? 0) < 5000) {
      if (child.exitCode !== null) throw new Error(`driver exited: ${err}`);
      if (Date.now() > deadline) throw new Error(`driver too slow: ${out.length} bytes`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await exited;

    const acked = [...out.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1]));
    expect(acked.length).toBeGreaterThanOrEqual(5000);
    // Each order was answered once it was in the journal; the tables may not hold the newest yet. The next start
    // replays the journal after them and projects it before anything reads the tables.
    const at = 'select e.batch_seq, p.projected_seq from engine_state e, core_projection p';
    const position = (await db.pool.query(at)).rows[0];
    expect(Number(position.projected_seq)).toBeLessThanOrEqual(Number(position.batch_seq));
    const rebuilt = await startCore(db.pool);
    const after = (await db.pool.query(at)).rows[0];
    expect(after.projected_seq).toBe(after.batch_seq);
    const stored = await db.pool.query('select id from orders where id = any($1::bigint[])', [acked]);
    expect(stored.rowCount).toBe(new Set(acked).size);

    // Whatever was committed is whole: money is conserved and every balance equals its postings.
    expect(await auditLedger(db.pool)).toEqual([]);
    // Locked funds are exactly what the open orders hold: no order without its hold or hold without its order.
    const orphanLocks = await db.pool.query(
      `with held as (
         select o.user_id, case when o.side = 'buy' then m.quote_unit else m.base_unit end as currency_id, sum(o.locked) as amount
         from orders o join markets m on m.id = o.market_id where o.state in ('wait', 'pending') group by 1, 2)
       select b.user_id, b.currency_id from balances b left join held h using (user_id, currency_id)
       where b.locked <> coalesce(h.amount, 0)`,
    );
    expect(orphanLocks.rows).toEqual([]);

    // Independently of the tables: the journal replayed from the first snapshot reaches the state the tables hold
    // after the crash (by hash), and every replayed command's postings equal its ledger rows.
    const proof = await verifyJournal(db.pool);
    expect(proof.tables.ok, JSON.stringify(proof.tables)).toBe(true);
    expect(proof.ledger.mismatched).toEqual([]);
    expect(proof.commands).toBeGreaterThanOrEqual(acked.length);
    expect(proof.ok).toBe(true);

    // The engine rebuilt from the tables holds the book the tables' open orders make up (its load reads them right).
    const depth = rebuilt.sequencer.state.depth('ethbtc', 1000);
    const fromDb = await db.pool.query(
      `select side, (price * 100000)::bigint::text as price, (sum(remaining_volume) * 1000)::bigint::text as volume
       from orders where market_id = 'ethbtc' and state in ('wait', 'pending') and price is not null
       group by side, price order by side, price`,
    );
    const levels = (side: string) =>
      fromDb.rows
        .filter((r) => r.side === side)
        .map((r) => [BigInt(r.price), BigInt(r.volume)] as [bigint, bigint]);
    expect([...depth.bids].sort((a, b) => (a[0] < b[0] ? -1 : 1))).toEqual(levels('buy'));
    expect([...depth.asks].sort((a, b) => (a[0] < b[0] ? -1 : 1))).toEqual(levels('sell'));
    const trades = await db.pool.query('select count(*)::int as n from trades');
    expect(trades.rows[0].n).toBeGreaterThan(0);
  });
});
