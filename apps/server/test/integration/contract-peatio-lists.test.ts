import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { externalAddress, member, peatio } from '../support/wallet.ts';

// Issue 30: Peatio 2.6.57's currency fields, filters and paging, /public/withdraw_limits, and the beneficiary
// list's paging and fields, as Peatio's clients read them (field names and headers).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v2/peatio${url}` });
const ids = (body: unknown) => (body as { id: string }[]).map((c) => c.id);

describe('GET /public/currencies', () => {
  it("carries Peatio's description, homepage, withdraw limits and base_factor", async () => {
    await t.db.pool.query(
      `insert into withdraw_limits (level, currency_id, per_withdrawal, per_day) values
       (2, 'btc', 0.5, 1), (3, 'btc', 1, 2.5), (3, 'trx', null, 1000)`,
    );
    const res = await get('/public/currencies');
    expect(res.statusCode).toBe(200);
    const byId = Object.fromEntries((res.json() as { id: string }[]).map((c) => [c.id, c])) as Record<
      string,
      Record<string, unknown>
    >;
    expect(byId.btc).toMatchObject({
      description: expect.stringContaining('digital currency') as unknown,
      homepage: 'https://bitcoin.org',
      withdraw_limit_24h: '2.5',
      withdraw_limit_72h: '7.5',
      base_factor: 100_000_000,
      precision: 8,
      type: 'coin',
    });
    expect(byId.eth?.base_factor).toBe(1e18);
    expect(JSON.parse(res.body.replace(/"base_factor":(\d+)/g, '"base_factor":"$1"'))[1].base_factor).toBe(
      '1000000000000000000',
    );
    expect(byId.trx).toMatchObject({ withdraw_limit_24h: '1000', withdraw_limit_72h: '3000' });
    // No daily limit: Peatio's "0".
    expect(byId.usdt).toMatchObject({
      withdraw_limit_24h: '0',
      withdraw_limit_72h: '0',
      base_factor: 1_000_000,
    });
    expect(byId.eur).toMatchObject({ type: 'fiat', base_factor: 100 });
  });

  it('filters by type and by a search of code or name, and pages with Total, Page and Per-Page', async () => {
    const all = await get('/public/currencies');
    expect(all.headers.total).toBe('5');
    expect(all.headers.page).toBe('1');
    expect(all.headers['per-page']).toBe('100');

    const coins = await get('/public/currencies?type=coin');
    expect(ids(coins.json())).toEqual(['btc', 'eth', 'usdt', 'trx']);
    expect(coins.headers.total).toBe('4');
    expect(ids((await get('/public/currencies?type=fiat')).json())).toEqual(['eur']);

    const page2 = await get('/public/currencies?limit=2&page=2');
    expect(ids(page2.json())).toEqual(['usdt', 'trx']);
    expect(page2.headers).toMatchObject({ total: '5', page: '2', 'per-page': '2' });
    expect((await get('/public/currencies?limit=2&page=4')).json()).toEqual([]);

    expect(ids((await get('/public/currencies?search[code]=tr')).json())).toEqual(['trx']);
    expect(ids((await get('/public/currencies?search[name]=ETHER')).json())).toEqual(['eth', 'usdt']);
    const json = encodeURIComponent(JSON.stringify({ code: 'eu', name: 'bitcoin' }));
    expect(ids((await get(`/public/currencies?search=${json}`)).json())).toEqual(['btc', 'eur']);
    // LIKE's wildcards are text here.
    expect((await get('/public/currencies?search[code]=%25')).json()).toEqual([]);
  });

  it("refuses a bad type, limit or page with Peatio's codes", async () => {
    const refusals: [string, string][] = [
      ['type=token', 'public.currency.invalid_type'],
      ['limit=0', 'pagination.invalid_limit'],
      ['limit=1001', 'pagination.invalid_limit'],
      ['limit=ten', 'pagination.non_integer_limit'],
      ['page=x', 'pagination.non_integer_page'],
      ['page=0', 'pagination.invalid_page'],
    ];
    for (const [query, code] of refusals) {
      const res = await get(`/public/currencies?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json(), query).toEqual({ errors: [code] });
    }
  });
});

describe('GET /public/withdraw_limits', () => {
  it("lists the limits in Peatio's shape, filtered, ordered and paged", async () => {
    const res = await get('/public/withdraw_limits');
    expect(res.statusCode).toBe(200);
    expect(res.headers.total).toBe('3');
    expect(res.json()[0]).toEqual({
      group: 'any',
      kyc_level: 2,
      currency: 'btc',
      limit_24_hour: '1',
      limit_1_month: '0',
      limit_per_withdrawal: '0.5',
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
    });
    const level3 = (await get('/public/withdraw_limits?kyc_level=3&order_by=currency&ordering=desc')).json();
    expect(level3.map((l: { currency: string }) => l.currency)).toEqual(['trx', 'btc']);
    expect(level3[0]).toMatchObject({ limit_24_hour: '1000', limit_per_withdrawal: '0' });
    expect((await get('/public/withdraw_limits?group=vip')).json()).toEqual([]);
    expect((await get('/public/withdraw_limits?group=ANY&currency=trx')).json()).toHaveLength(1);
    const paged = await get('/public/withdraw_limits?limit=1&page=3');
    expect(paged.json()).toHaveLength(1);
    expect(paged.headers).toMatchObject({ total: '3', page: '3', 'per-page': '1' });
    const bad = await get('/public/withdraw_limits?ordering=up');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ errors: ['pagination.invalid_ordering'] });
  });
});

describe('GET /account/beneficiaries', () => {
  it("gives a new beneficiary its owner's uid and sent_at, and pages the list", async () => {
    const owner = await member(t, 'lists@peatio.test');
    const uid = (await t.db.pool.query('select uid from users where id = $1', [owner.id])).rows[0].uid;
    const before = Date.now();
    const created: { id: number; uid: string; sent_at: string }[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const res = await peatio(t, owner, 'POST', '/account/beneficiaries', {
        name,
        currency: 'btc',
        data: { address: externalAddress('btc') },
      });
      expect(res.statusCode).toBe(201);
      created.push(res.json());
    }
    const first = created[0];
    expect(first?.uid).toBe(uid);
    expect(new Date(first?.sent_at ?? '').getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(first?.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const page = await peatio(t, owner, 'GET', '/account/beneficiaries?limit=2&page=2');
    expect(page.headers).toMatchObject({ total: '3', page: '2', 'per-page': '2' });
    expect(page.json()).toEqual([expect.objectContaining({ name: 'One', uid, sent_at: first?.sent_at })]);
    const all = await peatio(t, owner, 'GET', '/account/beneficiaries?currency_id=btc');
    expect(all.json().map((b: { name: string }) => b.name)).toEqual(['Three', 'Two', 'One']);
    const bad = await peatio(t, owner, 'GET', '/account/beneficiaries?limit=5000');
    expect(bad.json()).toEqual({ errors: ['pagination.invalid_limit'] });
    // Another user's list holds none of them.
    const other = await member(t, 'other-lists@peatio.test');
    const theirs = await peatio(t, other, 'GET', '/account/beneficiaries');
    expect(theirs.json()).toEqual([]);
    expect(theirs.headers.total).toBe('0');
  });
});
