import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskGuard } from '../../src/http/disk-guard.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

// A nearly full disk: new orders and withdrawals are refused with 503 (the database must keep room to commit),
// while reads and cancels go on; with room again, orders are taken again.
let t: TestApp;
let free = 100 * 2 ** 20;
const warnings: string[] = [];
const guard = new DiskGuard(
  '/data',
  512 * 2 ** 20,
  { warn: (m) => warnings.push(m), info: () => {} },
  async () => free,
);

beforeAll(async () => {
  t = await createTestApp({ diskGuard: guard });
}, 60_000);
afterAll(() => t.close());

describe('the disk guard', () => {
  it('refuses new orders and withdrawals while the disk is low, keeps cancels and reads, and recovers', async () => {
    const id = await plainUser(t.db.pool, 'disk@example.com');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: id,
      currency: 'eth',
      amount: 10n ** 18n,
      kind: 'deposit',
    });
    const headers = await sessionFor(t.deps.sessions, id);
    const order = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/peatio/market/orders',
        headers,
        payload: { market: 'ethbtc', side: 'sell', volume: '0.01', price: '9', ord_type: 'limit' },
      });

    expect(guard.low).toBe(true);
    expect(warnings.join('\n')).toMatch(/disk low: 100 MiB free on \/data \(DISK_MIN_FREE_MB is 512\)/);
    const refused = await order();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ errors: ['server.disk_low'] });
    expect(refused.headers['retry-after']).toBe('1');
    const withdrawal = await t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/withdraws',
      headers,
      payload: { currency: 'eth', amount: '0.1', beneficiary_id: 1, otp: '123456' },
    });
    expect(withdrawal.json()).toEqual({ errors: ['server.disk_low'] });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v2/peatio/market/orders', headers })).statusCode,
    ).toBe(200);
    const metrics = await t.app.metrics.metrics();
    expect(metrics).toContain('exchange_disk_low 1');

    free = 2 * 2 ** 30;
    await guard.check();
    const placed = await order();
    expect(placed.statusCode, placed.body).toBe(201);
    // Cancels were never guarded: they free funds.
    free = 1;
    await guard.check();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v2/peatio/market/orders/${placed.json().id}/cancel`,
      headers,
    });
    expect(cancel.statusCode, cancel.body).toBe(201);
    expect(await t.app.metrics.metrics()).toContain('exchange_disk_low 1');
  });
});
