import { beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { createTestApp } from '../support/app.ts';
import { adminCall, type Person, person as personOf, stepUp as stepUpOf } from '../support/staff.ts';
import { type Member, TRX, walletSuite } from '../support/wallet.ts';

/** Markets and currency networks in the operator console (issue #18, role `technical`). */
const w = walletSuite();
const person = (email: string, role: string) => personOf(w.t, email, role);
const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  adminCall(w.t, method, url, headers, payload);
const stepUp = (p: Person) => stepUpOf(w.t, p);

const BTC = 100_000_000n;
/** A market that does not exist until a test adds it: BTC priced in TRX, 0.01 TRX ticks, 0.0001 BTC steps. */
const BTCTRX = {
  id: 'btctrx',
  base_unit: 'btc',
  quote_unit: 'trx',
  amount_precision: 4,
  price_precision: 2,
  min_price: '0.01',
  max_price: '0',
  min_amount: '0.0001',
  maker_fee: '0.001',
  taker_fee: '0.002',
};

let technical: Person;
let seller: Member;
let buyer: Member;
beforeAll(async () => {
  technical = await person('technical@markets.test', 'technical');
  seller = await w.member('seller@markets.test');
  buyer = await w.member('buyer@markets.test');
  await w.credit(seller, 'btc', 10n * BTC);
  await w.credit(buyer, 'trx', 100_000n * TRX);
});

const order = (who: Member, side: 'buy' | 'sell', volume: string, price: string, market = 'btctrx') =>
  w.call(who, 'POST', '/market/orders', { market, side, volume, price, ord_type: 'limit' });
const markets = async () => (await w.t.db.pool.query('select id from markets order by id')).rows;
const trail = async (action: string) =>
  (await w.t.db.pool.query('select before, after from staff_actions where action = $1 order by id', [action]))
    .rows;

// One step-up (first test) lasts the file: each test takes a few seconds at most.
describe('markets and currencies in the console', () => {
  it('refuses customers, other roles and a stale step-up; bad input is refused and changes nothing', async () => {
    const customer = await person('customer@markets.test', 'member');
    const support = await person('support@markets.test', 'support');
    const accountant = await person('accountant@markets.test', 'accountant');
    for (const who of [customer, support, accountant]) {
      const res = await call('POST', '/markets', who.headers, BTCTRX);
      expect([res.statusCode, res.json()]).toEqual([403, { errors: ['admin.forbidden'] }]);
    }
    const stale = await call('POST', '/markets', technical.headers, BTCTRX);
    expect([stale.statusCode, stale.json()]).toEqual([403, { errors: ['admin.step_up_required'] }]);
    await stepUp(technical);

    const before = await markets();
    const refusals: [Record<string, unknown>, string][] = [
      [{ id: 'BTC-TRX' }, 'admin.market.invalid_id'],
      [{ base_unit: 'xyz' }, 'admin.market.invalid_currency'],
      [{ base_unit: 'trx' }, 'admin.market.invalid_currency'],
      [{ price_precision: 3 }, 'admin.market.invalid_precision'], // 3 + 4 > TRX's 6
      [{ amount_precision: 19 }, 'admin.market.invalid_precision'],
      [{ amount_precision: 1.5 }, 'admin.market.invalid_precision'],
      [{ min_price: '0' }, 'admin.market.invalid_price'],
      [{ min_price: '0.001' }, 'admin.market.invalid_price'], // finer than the 0.01 tick
      [{ min_price: '1e3' }, 'admin.market.invalid_price'],
      [{ min_price: 1 }, 'admin.market.invalid_price'],
      [{ max_price: '0.005' }, 'admin.market.invalid_price'], // below the minimum
      [{ min_amount: '0' }, 'admin.market.invalid_amount'],
      [{ min_amount: '0.00001' }, 'admin.market.invalid_amount'],
      [{ maker_fee: '1' }, 'admin.market.invalid_fee'],
      [{ taker_fee: '0.0000001' }, 'admin.market.invalid_fee'],
      [{ taker_fee: '-0.1' }, 'admin.market.invalid_fee'],
      [{ state: 'hidden' }, 'admin.market.invalid_state'],
      [{ id: 'btcusdt', quote_unit: 'usdt' }, 'admin.market.exists'],
    ];
    for (const [bad, code] of refusals) {
      const res = await call('POST', '/markets', technical.headers, { ...BTCTRX, ...bad });
      expect([res.statusCode, res.json()], JSON.stringify(bad)).toEqual([422, { errors: [code] }]);
    }
    const unchanged = await call('POST', '/markets/btcusdt', technical.headers, { min_amount: '0.000001' });
    expect(unchanged.json()).toEqual({ errors: ['admin.market.invalid_amount'] });
    expect((await call('POST', '/markets/btcusdt', technical.headers, {})).json()).toEqual({
      errors: ['admin.change.empty'],
    });
    expect((await call('POST', '/markets/btcusdt', technical.headers, { max_price: '0.05' })).json()).toEqual(
      {
        errors: ['admin.market.invalid_price'],
      },
    );
    const missing = await call('POST', '/markets/nosuch', technical.headers, { state: 'disabled' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { errors: ['admin.market.not_found'] }]);
    const network = await call('POST', '/networks/trx/tron-sim', technical.headers, {
      withdraw_fee: '0.0000001',
    });
    expect(network.json()).toEqual({ errors: ['admin.network.invalid_amount'] });
    const noNetwork = await call('POST', '/networks/trx/nowhere', technical.headers, {
      withdraw_enabled: false,
    });
    expect([noNetwork.statusCode, noNetwork.json()]).toEqual([404, { errors: ['admin.network.not_found'] }]);

    expect(await markets()).toEqual(before);
    expect(w.t.deps.core.markets.has('btctrx')).toBe(false);
    const btcusdt = (await call('GET', '/markets', technical.headers))
      .json()
      .find((m: { id: string }) => m.id === 'btcusdt');
    expect(btcusdt).toMatchObject({ min_amount: '0.00001', max_price: '10000000', state: 'enabled' });
    expect(await trail('market.add')).toEqual([]);
    expect(await trail('market.update')).toEqual([]);
    expect(await trail('network.update')).toEqual([]);
  });

  it('adds a market through the core: listed, tradable at once, the ledger balanced', async () => {
    const added = await call('POST', '/markets', technical.headers, BTCTRX);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      id: 'btctrx',
      state: 'enabled',
      maker_fee: '0.001',
      taker_fee: '0.002',
    });
    const listed = await w.t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/markets' });
    expect(listed.json().map((m: { id: string }) => m.id)).toContain('btctrx');

    expect((await order(seller, 'sell', '1', '100')).statusCode).toBe(201);
    const depth = await w.t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/markets/btctrx/depth' });
    expect(depth.json().asks).toEqual([['100', '1']]);
    const taken = await order(buyer, 'buy', '1', '100');
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toMatchObject({ state: 'done', trades_count: 1 });
    // 1 BTC for 100 TRX: the buyer (taker) pays 0.2% of the BTC, the seller (maker) 0.1% of the TRX.
    expect(w.balance(buyer, 'btc').balance).toBe(BTC - BTC / 500n);
    expect(w.balance(seller, 'trx').balance).toBe(100n * TRX - (100n * TRX) / 1000n);
    expect(await auditLedger(w.t.db.pool)).toEqual([]);
    expect(await trail('market.add')).toEqual([
      { before: null, after: expect.objectContaining({ id: 'btctrx', min_amount: '0.0001' }) },
    ]);
  });

  it('disables trading (new orders refused, resting ones stay) and enables it again', async () => {
    const resting = (await order(seller, 'sell', '0.5', '120')).json();
    const off = await call('POST', '/markets/btctrx', technical.headers, { state: 'disabled' });
    expect(off.json()).toMatchObject({ id: 'btctrx', state: 'disabled' });
    const refused = await order(buyer, 'buy', '0.5', '120');
    expect([refused.statusCode, refused.json()]).toEqual([422, { errors: ['market.market.not_enabled'] }]);
    expect(w.t.deps.core.sequencer.state.order(resting.id)).toMatchObject({ state: 'wait' });
    const on = await call('POST', '/markets/btctrx', technical.headers, { state: 'enabled' });
    expect(on.json()).toMatchObject({ state: 'enabled' });
    expect((await order(buyer, 'buy', '0.5', '120')).json()).toMatchObject({ state: 'done' });
    expect(await trail('market.update')).toEqual([
      {
        before: expect.objectContaining({ state: 'enabled' }),
        after: expect.objectContaining({ state: 'disabled' }),
      },
      {
        before: expect.objectContaining({ state: 'disabled' }),
        after: expect.objectContaining({ state: 'enabled' }),
      },
    ]);
  });

  it('applies new fees and minimums to the next orders', async () => {
    const changed = await call('POST', '/markets/btctrx', technical.headers, {
      maker_fee: '0',
      taker_fee: '0.01',
      min_amount: '0.01',
    });
    expect(changed.json()).toMatchObject({ maker_fee: '0', taker_fee: '0.01', min_amount: '0.01' });
    const small = await order(seller, 'sell', '0.001', '100');
    expect([small.statusCode, small.json()]).toEqual([422, { errors: ['market.order.invalid_volume'] }]);
    const [btc, trx] = [w.balance(buyer, 'btc').balance, w.balance(seller, 'trx').balance];
    expect((await order(seller, 'sell', '1', '100')).json()).toMatchObject({ maker_fee: '0.0' });
    expect((await order(buyer, 'buy', '1', '100')).json()).toMatchObject({ state: 'done' });
    expect(w.balance(buyer, 'btc').balance - btc).toBe(BTC - BTC / 100n);
    expect(w.balance(seller, 'trx').balance - trx).toBe(100n * TRX);
    expect(await auditLedger(w.t.db.pool)).toEqual([]);
  });

  it('switches withdrawals and deposits of a network, and changes its fee, in the trail', async () => {
    const { who, beneficiary } = await w.withdrawer('withdrawer@markets.test', 50n * TRX);
    const off = await call('POST', '/networks/trx/tron-sim', technical.headers, {
      withdraw_enabled: false,
      deposit_enabled: false,
      withdraw_fee: '1.5',
    });
    expect(off.json()).toMatchObject({
      withdraw_enabled: false,
      deposit_enabled: false,
      withdraw_fee: '1.5',
    });
    const refused = await w.withdraw(who, beneficiary, '20');
    expect([refused.statusCode, refused.json()]).toEqual([422, { errors: ['account.withdraw.disabled'] }]);
    expect(w.balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    const address = await w.call(who, 'GET', '/account/deposit_address/trx?blockchain_key=tron-sim');
    expect(address.json()).toEqual({ errors: ['account.deposit.disabled'] });
    await call('POST', '/networks/trx/tron-sim', technical.headers, {
      withdraw_enabled: true,
      deposit_enabled: true,
    });
    const sent = await w.withdraw(who, beneficiary, '20');
    expect(sent.statusCode, sent.body).toBe(201);
    // The amount is held whole; the network's new fee is what the withdrawal will keep of it.
    expect(w.balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 20n * TRX });
    const stored = await w.t.db.pool.query('select fee::text from withdrawals where user_id = $1', [who.id]);
    expect(stored.rows).toEqual([{ fee: '1.500000000000000000' }]);
    const [first] = await trail('network.update');
    expect(first.before).toMatchObject({ withdraw_enabled: true, deposit_enabled: true });
    expect(first.after).toMatchObject({
      withdraw_enabled: false,
      deposit_enabled: false,
      withdraw_fee: '1.5',
    });
  });

  it('keeps an added market, its state, fees and book across a restart', async () => {
    await call('POST', '/markets/btctrx', technical.headers, { taker_fee: '0.005' });
    const resting = (await order(seller, 'sell', '1', '150')).json();
    await w.t.app.close();
    w.t = await createTestApp({}, {}, w.t.db);
    expect(w.t.deps.core.markets.get('btctrx')).toMatchObject({ minAmount: '0.01', pricePrecision: 2 });
    expect(w.t.deps.core.sequencer.state.order(resting.id)).toMatchObject({ state: 'wait', takerFee: 5000n });
    const depth = await w.t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/markets/btctrx/depth' });
    expect(depth.json().asks).toEqual([['150', '1']]);
    const btc = w.balance(buyer, 'btc').balance;
    expect((await order(buyer, 'buy', '1', '150')).json()).toMatchObject({
      state: 'done',
      taker_fee: '0.005',
    });
    expect(w.balance(buyer, 'btc').balance - btc).toBe(BTC - BTC / 200n);
  });
});
