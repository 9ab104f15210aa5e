import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  alice = await sessionFor(t.deps.sessions, await plainUser(t.db.pool, 'alice@fav.test'));
  bob = await sessionFor(t.deps.sessions, await plainUser(t.db.pool, 'bob@fav.test'));
});
afterAll(() => t.close());

const put = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v2/peatio/account/fav_market',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const list = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/fav_market/list', headers });
const stored = async () =>
  (await t.db.pool.query('select count(*)::int as n from favourite_markets')).rows[0].n as number;

describe('favourite markets', () => {
  it('starts empty, marks markets in the order they were starred, and answers with the whole list', async () => {
    expect((await list(alice)).json()).toEqual([]);
    const first = await put(alice, { market_id: 'btcusdt', is_fav: 1 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(['btcusdt']);
    // is_fav may be a boolean too, and defaults to marking.
    expect((await put(alice, { market_id: 'ethbtc', is_fav: true })).json()).toEqual(['btcusdt', 'ethbtc']);
    expect((await put(alice, { market_id: 'trxusdt' })).json()).toEqual(['btcusdt', 'ethbtc', 'trxusdt']);
    expect((await list(alice)).json()).toEqual(['btcusdt', 'ethbtc', 'trxusdt']);
  });

  it('marking twice keeps one entry; unmarking removes it, and unmarking again is harmless', async () => {
    expect((await put(alice, { market_id: 'ethbtc', is_fav: 1 })).json()).toEqual([
      'btcusdt',
      'ethbtc',
      'trxusdt',
    ]);
    expect((await put(alice, { market_id: 'ethbtc', is_fav: 0 })).json()).toEqual(['btcusdt', 'trxusdt']);
    expect((await put(alice, { market_id: 'trxusdt', is_fav: false })).json()).toEqual(['btcusdt']);
    const again = await put(alice, { market_id: 'trxusdt', is_fav: 0 });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(['btcusdt']);
  });

  it('keeps each user to their own list', async () => {
    expect((await list(bob)).json()).toEqual([]);
    expect((await put(bob, { market_id: 'ethusdt', is_fav: 1 })).json()).toEqual(['ethusdt']);
    // Bob unmarking Alice's favourite touches only his own (empty) entry for it.
    expect((await put(bob, { market_id: 'btcusdt', is_fav: 0 })).json()).toEqual(['ethusdt']);
    expect((await list(alice)).json()).toEqual(['btcusdt']);
    expect((await list(bob)).json()).toEqual(['ethusdt']);
  });

  it.each([
    ['an unknown market', { market_id: 'dogeeur', is_fav: 1 }, 'market.market.doesnt_exist'],
    ['no market', { is_fav: 1 }, 'server.invalid_params'],
    ['a market id that is not text', { market_id: 5, is_fav: 1 }, 'server.invalid_params'],
    ['an overlong market id', { market_id: 'x'.repeat(21), is_fav: 1 }, 'server.invalid_params'],
    ['is_fav other than 0/1/true/false', { market_id: 'ethbtc', is_fav: 2 }, 'server.invalid_params'],
    ['is_fav as text', { market_id: 'ethbtc', is_fav: 'yes' }, 'server.invalid_params'],
  ])('refuses %s with 422 and changes nothing', async (_name, body, code) => {
    const before = await stored();
    const res = await put(alice, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [code] });
    expect(await stored()).toBe(before);
    expect((await list(alice)).json()).toEqual(['btcusdt']);
  });

  it('needs a signed-in user, and the session CSRF token to change the list', async () => {
    const anonymousList = await list({});
    expect(anonymousList.statusCode).toBe(401);
    expect(anonymousList.json()).toEqual({ errors: ['authz.invalid_session'] });
    expect((await put({}, { market_id: 'ethbtc', is_fav: 1 })).statusCode).toBe(401);

    const { 'x-csrf-token': _token, ...cookieOnly } = alice;
    const forged = await put(cookieOnly, { market_id: 'ethbtc', is_fav: 1 });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ errors: ['authz.missing_csrf_token'] });
    expect((await list(alice)).json()).toEqual(['btcusdt']);
  });
});
