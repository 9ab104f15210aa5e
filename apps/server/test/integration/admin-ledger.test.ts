import { formatUnits, LEDGER_SYSTEM_ACCOUNTS, type LedgerTotalsEntity } from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser } from '../support/core.ts';
import { adminCall, type Person, person as personOf, stepUp as stepUpOf } from '../support/staff.ts';

/** The ledger view of the operator console (issue #18, role `accountant`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const person = (email: string, role: string) => personOf(t, email, role);
const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  adminCall(t, method, url, headers, payload);
const stepUp = (p: Person) => stepUpOf(t, p);

const BTC = 100_000_000n;
const USDT = 1_000_000n;
const users: number[] = [];
let accountant: Person;

beforeAll(async () => {
  accountant = await person('accountant@ledger.test', 'accountant');
  const submit = t.deps.core.sequencer.submit.bind(t.deps.core.sequencer);
  for (const email of ['a@ledger.test', 'b@ledger.test']) users.push(await plainUser(t.db.pool, email));
  const [a, b] = users as [number, number];
  await submit({ type: 'Credit', user: a, currency: 'btc', amount: 2n * BTC, kind: 'deposit' });
  await submit({ type: 'Credit', user: b, currency: 'usdt', amount: 100_000n * USDT, kind: 'deposit' });
  // A trade (fees on both sides), a resting order (locked) and a held withdrawal.
  const place = (user: number, side: 'buy' | 'sell', volume: bigint) =>
    submit({ type: 'PlaceOrder', user, market: 'btcusdt', side, ordType: 'limit', price: 650_000n, volume });
  expect((await place(a, 'sell', 100_000n)).ok).toBe(true);
  expect((await place(b, 'buy', 50_000n)).ok).toBe(true);
  await submit({
    type: 'HoldWithdrawal',
    user: b,
    currency: 'usdt',
    amount: 10n * USDT,
    withdrawalId: 'ledger-w1',
  });
});

/** Every currency's totals from the engine's memory: an independent reading of what the ledger view sums. */
function engineTotals(): Map<string, Record<string, bigint>> {
  const engine = t.deps.core.sequencer.state;
  const out = new Map<string, Record<string, bigint>>();
  for (const currency of t.deps.core.units.precisions.keys()) {
    const row: Record<string, bigint> = { balance: 0n, locked: 0n };
    for (const user of users) {
      row.balance = (row.balance as bigint) + engine.balance(user, currency).balance;
      row.locked = (row.locked as bigint) + engine.balance(user, currency).locked;
    }
    for (const account of LEDGER_SYSTEM_ACCOUNTS) row[account] = engine.systemBalance(account, currency);
    out.set(currency, row);
  }
  return out;
}

/** RFC 4180: fields split on commas outside quotes, doubled quotes inside quoted fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('the ledger in the console', () => {
  it('is for accountants with a fresh step-up only', async () => {
    const others = [
      await person('customer@ledger.test', 'member'),
      await person('support@ledger.test', 'support'),
      await person('technical@ledger.test', 'technical'),
      await person('compliance@ledger.test', 'compliance'),
    ];
    for (const url of ['/ledger', '/ledger.csv']) {
      for (const who of others)
        expect((await call('GET', url, who.headers)).json(), url).toEqual({ errors: ['admin.forbidden'] });
      expect((await call('GET', url, accountant.headers)).json()).toEqual({
        errors: ['admin.step_up_required'],
      });
    }
  });

  it('shows totals per currency and system account that match the balances, and a clean audit', async () => {
    await stepUp(accountant);
    const res = await call('GET', '/ledger', accountant.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store, private');
    const view = res.json() as { totals: LedgerTotalsEntity[]; audit: unknown; at: string };
    expect(view.audit).toEqual({ clean: true, failures: [] });
    const expected = engineTotals();
    expect(view.totals.map((r) => r.currency).sort()).toEqual([...expected.keys()].sort());
    for (const row of view.totals) {
      const p = t.deps.core.units.precision(row.currency);
      const want = expected.get(row.currency) as Record<string, bigint>;
      for (const column of ['balance', 'locked', ...LEDGER_SYSTEM_ACCOUNTS] as const)
        expect(row[column], `${row.currency} ${column}`).toBe(formatUnits(want[column] as bigint, p));
      expect(row.sum, row.currency).toBe('0');
    }
    // The trade left fees in both currencies, the order and the withdrawal locked funds.
    const btc = view.totals.find((r) => r.currency === 'btc');
    const usdt = view.totals.find((r) => r.currency === 'usdt');
    expect(btc).toMatchObject({ locked: '0.5', external: '-2' });
    expect(Number(btc?.fees)).toBeGreaterThan(0);
    expect(usdt).toMatchObject({ locked: '10', external: '-100000' });
    expect(Number(usdt?.fees)).toBeGreaterThan(0);
  });

  it('exports the same totals as a CSV download', async () => {
    const json = (await call('GET', '/ledger', accountant.headers)).json() as {
      totals: LedgerTotalsEntity[];
    };
    const res = await call('GET', '/ledger.csv', accountant.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store, private');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="ledger-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(['currency', 'balance', 'locked', 'fees', 'external', 'card', 'swap', 'sum']);
    expect(rows.map((r) => Object.fromEntries(r.map((v, i) => [header?.[i], v])))).toEqual(json.totals);
  });

  it('shows the audit failures when the books do not balance', async () => {
    // A posting with no counterpart, as a bug or a hand edit would leave it.
    await t.db.pool.query(
      `insert into ledger_postings (batch_seq, account, currency_id, amount, kind) values (null, 'fees', 'btc', 1, 'manual')`,
    );
    const view = (await call('GET', '/ledger', accountant.headers)).json();
    expect(view.audit.clean).toBe(false);
    expect(view.audit.failures).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'double-entry', currency: 'btc' })]),
    );
  });
});
