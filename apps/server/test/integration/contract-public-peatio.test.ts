import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

// Peatio 2.6.57 and Barong 2.6.49 public reads: the running version, and one currency by id.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const root = new URL('../../../../', import.meta.url);

describe('the running version', () => {
  it('Peatio and Barong answer {git_tag, git_sha, build_date, version} from package.json and the checkout', async () => {
    const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    const sha = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    const peatio = await get('/api/v2/peatio/public/version');
    const barong = await get('/api/v2/barong/identity/version');
    for (const res of [peatio, barong]) {
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['build_date', 'git_sha', 'git_tag', 'version']);
      expect(body).toMatchObject({ version, git_tag: version, git_sha: sha });
      expect(new Date(body.build_date).toISOString()).toBe(body.build_date);
    }
    expect(barong.json()).toEqual(peatio.json());
    // Computed once: a later call answers the same build date.
    expect((await get('/api/v2/peatio/public/version')).json()).toEqual(peatio.json());
  });
});

describe('GET /public/currencies/{id}', () => {
  it('answers one currency exactly as its item in /public/currencies, in any case', async () => {
    const list = (await get('/api/v2/peatio/public/currencies')).json() as { id: string }[];
    expect(list.length).toBeGreaterThan(1);
    for (const item of list) {
      const one = await get(`/api/v2/peatio/public/currencies/${item.id}`);
      expect(one.statusCode, item.id).toBe(200);
      expect(one.json()).toEqual(item);
    }
    const upper = await get('/api/v2/peatio/public/currencies/BTC');
    expect(upper.json()).toEqual(list.find((c) => c.id === 'btc'));
  });

  it('refuses an unknown or hidden currency as Peatio does (422 public.currency.doesnt_exist)', async () => {
    await t.db.pool.query(`update currencies set visible = false where id = 'trx'`);
    try {
      for (const id of ['zzz', 'trx', 'a'.repeat(100), '%20']) {
        const res = await get(`/api/v2/peatio/public/currencies/${id}`);
        expect(res.statusCode, id).toBe(422);
        expect(res.json(), id).toEqual({ errors: ['public.currency.doesnt_exist'] });
      }
    } finally {
      await t.db.pool.query(`update currencies set visible = true where id = 'trx'`);
    }
  });
});
