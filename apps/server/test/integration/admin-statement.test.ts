import type { StatementEntity } from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Submitted } from '../../src/core/sequencer.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser } from '../support/core.ts';
import { adminCall, type Person, person as personOf, stepUp as stepUpOf } from '../support/staff.ts';

/** A customer's statement of account (issue 28): every movement names its command and cause. */
let t: TestApp;
let accountant: Person;
let compliance: Person;
let support: Person;
let customer: { id: number; uid: string };
let other: number;
const USDT = 1_000_000n;

beforeAll(async () => {
  t = await createTestApp();
  accountant = await personOf(t, 'accountant@statement.test', 'accountant');
  compliance = await personOf(t, 'compliance@statement.test', 'compliance');
  support = await personOf(t, 'support@statement.test', 'support');
  const id = await plainUser(t.db.pool, 'customer@statement.test');
  customer = { id, uid: (await t.db.pool.query('select uid from users where id = $1', [id])).rows[0].uid };
  other = await plainUser(t.db.pool, 'other@statement.test');
  const submit = (command: Submitted, ref?: string) => t.deps.core.sequencer.submit(command, ref);
  const ok = async (command: Submitted, ref?: string) => expect((await submit(command, ref)).ok).toBe(true);
  // Every kind of movement, with the client ids the services give their commands.
  await ok(
    { type: 'Credit', user: id, currency: 'usdt', amount: 10_000n * USDT, kind: 'deposit' },
    'deposit:501',
  );
  await ok(
    { type: 'Credit', user: other, currency: 'btc', amount: 100_000_000n, kind: 'deposit' },
    'deposit:502',
  );
  await ok(
    { type: 'Credit', user: id, currency: 'usdt', amount: 5n * USDT, kind: 'adjustment' },
    'adjustment:7',
  );
  const order = (user: number, side: 'buy' | 'sell', volume: bigint) =>
    submit({ type: 'PlaceOrder', user, market: 'btcusdt', side, ordType: 'limit', price: 650_000n, volume });
  await order(other, 'sell', 2_000n); // 0.02 BTC at 65,000.0 rests
  const bought = await order(id, 'buy', 3_000n); // 0.02 fills (fees both sides), 0.01 rests
  await ok({ type: 'CancelOrder', user: id, orderId: bought.orderId as number });
  await ok(
    { type: 'HoldWithdrawal', user: id, currency: 'usdt', amount: 100n * USDT, withdrawalId: '9' },
    'withdraw-hold:9',
  );
  await ok({ type: 'SettleWithdrawal', withdrawalId: '9', fee: USDT }, 'withdraw-settle:9');
  await ok(
    { type: 'InternalTransfer', from: id, to: other, currency: 'usdt', amount: 3n * USDT },
    'transfer:3',
  );
  await ok({ type: 'FundLiquidity', currency: 'btc', amount: 10n ** 8n }, 'seed:liquidity:btc');
  await ok(
    {
      type: 'Swap',
      user: id,
      from: 'usdt',
      to: 'btc',
      amount: 65n * USDT,
      mode: { price: 1538n },
      feePpm: 2000n,
    },
    'swap:quote-hash',
  );
  await ok({ type: 'CardTopUp', user: id, amount: 50n * USDT, fee: 500_000n }, 'card-topup:4');
  await ok({ type: 'CardFee', user: id, amount: 10n * USDT }, 'card-fee:1:1:0');
  await ok({ type: 'CardRefund', user: id, amount: 50n * USDT }, 'card-refund:4');
  await stepUpOf(t, accountant);
  await stepUpOf(t, compliance);
  await stepUpOf(t, support);
});
afterAll(() => t.close());

const statement = (who: Person, query: string, uid = customer.uid) =>
  adminCall(t, 'GET', `/users/${uid}/statement?${query}`, who.headers);

describe("a customer's statement of account", () => {
  it('names the command, cause and reference of every movement, with the balances after each', async () => {
    const res = await statement(accountant, 'currency=usdt&limit=1000');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store, private');
    const body = res.json() as StatementEntity;
    expect(body.opening).toEqual({ balance: '0', locked: '0' });
    const causes = body.rows.map((r) => `${r.cause} ${r.ref}`);
    const tradeRef = body.rows.find((r) => r.cause === 'trade')?.ref;
    expect(tradeRef).toMatch(/^trade:\d+$/);
    const orderRef = body.rows.find((r) => r.cause === 'order')?.ref;
    expect(orderRef).toMatch(/^order:\d+$/);
    expect(causes).toEqual([
      'deposit deposit:501',
      'adjustment adjustment:7',
      `order ${orderRef}`, // the buy's hold
      `trade ${tradeRef}`, // paid from the hold
      `order ${orderRef}`, // its release, on cancel
      'withdrawal withdraw-hold:9',
      'withdrawal withdraw-settle:9', // the amount leaves, then the fee (both from the hold)
      'fee withdraw-settle:9',
      'transfer transfer:3',
      'swap swap:quote-hash',
      'card_topup card-topup:4',
      'fee card-topup:4',
      'card_fee card-fee:1:1:0',
      'card_refund card-refund:4',
    ]);
    // Commands in order, and the balances after the last movement are the core's.
    const commands = body.rows.map((r) => r.command);
    expect(commands).toEqual([...commands].sort((a, b) => a - b));
    const last = body.rows[body.rows.length - 1];
    const engine = t.deps.core.sequencer.state.balance(customer.id, 'usdt');
    expect([last?.balance, last?.locked]).toEqual(['8526.5', '0']);
    expect(engine).toEqual({ balance: 8_526_500_000n, locked: 0n });
    // A hold moves money from available to held; its release back.
    expect(body.rows[2]).toMatchObject({ balance_change: '-1950', locked_change: '1950', locked: '1950' });
    expect(body.rows[4]).toMatchObject({ balance_change: '650', locked_change: '-650', locked: '0' });
    expect(res.headers.total).toBe(String(body.rows.length));
  });

  it('shows the fee of a trade as its own movement, referring to the trade', async () => {
    const btc = (await statement(accountant, 'currency=btc')).json() as StatementEntity;
    const [trade, fee, swap] = btc.rows;
    expect(trade).toMatchObject({ cause: 'trade', balance_change: '0.02' });
    expect(fee).toMatchObject({ cause: 'fee', ref: trade?.ref, balance_change: '-0.00004' }); // the taker's 0.2 %
    expect(btc.rows.at(-1)?.balance).toBe('0.0209577');
    expect(swap).toMatchObject({ cause: 'swap', ref: 'swap:quote-hash', balance_change: '0.0009977' });
    // The ledger rows themselves: each names its command and cause.
    const rows = await t.db.pool.query(
      `select kind, count(*)::int as n, bool_and(command_seq is not null) as named from ledger_postings
       where batch_seq is not null group by kind order by kind`,
    );
    expect(rows.rows.every((r) => r.named)).toBe(true);
    expect(rows.rows.map((r) => r.kind)).toEqual([
      'adjustment',
      'card_fee',
      'card_refund',
      'card_topup',
      'deposit',
      'fee',
      'liquidity',
      'order',
      'swap',
      'trade',
      'transfer',
      'withdrawal',
    ]);
  });

  it('pages oldest first and windows by time, with balances still running from the start', async () => {
    const all = (await statement(accountant, 'currency=usdt&limit=1000')).json() as StatementEntity;
    const page2 = await statement(accountant, 'currency=usdt&limit=5&page=2');
    expect(page2.headers).toMatchObject({ total: String(all.total), page: '2', 'per-page': '5' });
    expect((page2.json() as StatementEntity).rows).toEqual(all.rows.slice(5, 10));
    const from = all.rows[10]?.at as string;
    const later = (await statement(accountant, `currency=usdt&from=${encodeURIComponent(from)}`)).json();
    expect((later as StatementEntity).rows[0]?.balance).toBe(all.rows.find((r) => r.at >= from)?.balance);
  });

  it('downloads as CSV: a header, the opening balances, then every movement', async () => {
    const res = await adminCall(
      t,
      'GET',
      `/users/${customer.uid}/statement.csv?currency=usdt`,
      compliance.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="statement-${customer.uid}-usdt.csv"`,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('command,at,cause,ref,balance_change,locked_change,balance,locked');
    expect(lines[1]).toBe(',,opening,,,,0,0');
    expect(lines).toHaveLength(2 + 14);
    expect(lines[2]).toMatch(/^\d+,[^,]+,deposit,deposit:501,10000,0,10000,0$/);
  });

  it('is refused to roles without the permission, to customers and without a session, and for unknown things', async () => {
    const denied = await statement(support, 'currency=usdt');
    expect([denied.statusCode, denied.json()]).toEqual([403, { errors: ['admin.forbidden'] }]);
    const member = await personOf(t, 'member@statement.test', 'member');
    expect((await statement(member, 'currency=usdt')).statusCode).toBe(403);
    const anonymous = await adminCall(t, 'GET', `/users/${customer.uid}/statement?currency=usdt`);
    expect(anonymous.statusCode).toBe(401);
    const currency = await statement(accountant, 'currency=doge');
    expect([currency.statusCode, currency.json()]).toEqual([
      422,
      { errors: ['admin.statement.invalid_currency'] },
    ]);
    const missing = await statement(accountant, 'currency=usdt', 'ID0000000000');
    expect([missing.statusCode, missing.json()]).toEqual([404, { errors: ['admin.user.not_found'] }]);
    const bad = await statement(accountant, 'currency=usdt&limit=5000');
    expect(bad.statusCode).toBe(422);
  });
});
