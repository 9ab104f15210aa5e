import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { newTotpSecret } from '../../src/modules/identity/totp.ts';
import { serveMetrics } from '../../src/modules/metrics/registry.ts';
import { LATENCY_BUCKETS } from '../../src/modules/metrics/route-metrics.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';
import { freePort } from '../support/ports.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('metrics', () => {
  it('counts requests by route, core batches and the rest, for technical staff and on a port of its own', async () => {
    const user = await plainUser(t.db.pool, 'metered@example.com');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user,
      currency: 'usdt',
      amount: 5n,
      kind: 'deposit',
    });
    for (let i = 0; i < 3; i++) await t.app.inject('/api/v2/peatio/public/markets');
    await t.app.inject('/api/v2/peatio/public/markets/ethbtc/depth');
    expect((await t.app.inject('/api/v2/peatio/public/no-such-route-x1')).statusCode).toBe(404);
    // The chain watchers run once (tests tick the wallet by hand).
    await t.deps.wallet.tick();

    const tech = await plainUser(t.db.pool, 'tech@example.com');
    const secret = newTotpSecret();
    await t.db.pool.query(
      `update users set role = 'technical', otp = true, otp_secret_enc = $2 where id = $1`,
      [tech, encrypt(t.deps.keys, secret)],
    );
    const headers = await sessionFor(t.deps.sessions, tech);
    const code = new TOTP({ secret, period: 30, digits: 6 }).generate();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v2/admin/step_up',
          headers,
          payload: { otp_code: code },
        })
      ).statusCode,
    ).toBe(200);
    const scraped = await t.app.inject({ method: 'GET', url: '/api/v2/admin/metrics', headers });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers['content-type']).toContain('text/plain');
    const text = scraped.body;
    expect(text).toContain(
      'http_requests_total{method="GET",route="/api/v2/peatio/public/markets",status="200"} 3',
    );
    // Latency as a Prometheus histogram: cumulative buckets, a +Inf bucket equal to the count, and a sum.
    const markets = 'method="GET",route="/api/v2/peatio/public/markets"';
    expect(text).toContain(`http_request_duration_seconds_count{${markets}} 3`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${markets},le="+Inf"} 3`);
    expect(text).toMatch(/# TYPE http_request_duration_seconds histogram/);
    const buckets = [
      ...text.matchAll(
        /http_request_duration_seconds_bucket\{method="GET",route="\/api\/v2\/peatio\/public\/markets",le="([^"]+)"\} (\d+)/g,
      ),
    ];
    expect(buckets.map((m) => m[1])).toEqual([...LATENCY_BUCKETS.map(String), '+Inf']);
    const counts = buckets.map((m) => Number(m[2]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(text).toMatch(
      /http_request_duration_seconds_sum\{method="GET",route="\/api\/v2\/peatio\/public\/markets"\} 0\.\d+/,
    );
    // A URL no route matches is counted under one label, not its own.
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).not.toContain('no-such-route-x1');
    // Route patterns, not raw URLs: a market id does not make a label of its own.
    expect(text).toContain('route="/api/v2/peatio/public/markets/:id/depth"');
    expect(text).not.toContain('markets/ethbtc');
    expect(text).toMatch(/exchange_core_batch_commands_count [1-9]/);
    expect(text).toMatch(/exchange_core_commit_seconds_bucket/);
    for (const name of [
      'exchange_core_queue_depth 0',
      'exchange_ws_clients 0',
      'exchange_database_up 1',
      'exchange_mail_queued 0',
      'exchange_mail_dead_letters 0',
      'exchange_ws_dropped_clients_total 0',
      'exchange_chain_height{network=',
      'exchange_chain_watcher_lag_seconds{network=',
      'exchange_webhooks_unmatched{provider="kyc"} 0',
      'process_cpu_seconds_total',
    ])
      expect(text).toContain(name);

    // The console's health of each component: an errored withdrawal puts the withdrawals in `degraded`.
    const health = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v2/admin/health', headers })).json() as {
        component: string;
        status: string;
        detail: string;
      }[];
    const before = await health();
    expect(before.map((c) => [c.component, c.status])).toEqual(
      expect.arrayContaining([
        ['database', 'ok'],
        ['core', 'ok'],
        ['KYC webhooks', 'ok'],
        ['withdrawals', 'ok'],
      ]),
    );
    expect(before.some((c) => c.component.startsWith('chain ') && c.status === 'ok')).toBe(true);
    const network = (await t.db.pool.query('select key from blockchains order by key limit 1')).rows[0].key;
    const currency = (
      await t.db.pool.query('select currency_id from currency_networks where blockchain_key = $1 limit 1', [
        network,
      ])
    ).rows[0].currency_id;
    await t.db.pool.query(
      `insert into withdrawals (user_id, currency_id, blockchain_key, rid, amount, fee, state)
       values ($1, $2, $3, 'somewhere', 1, 0, 'errored')`,
      [user, currency, network],
    );
    expect((await health()).find((c) => c.component === 'withdrawals')).toEqual({
      component: 'withdrawals',
      status: 'degraded',
      detail: '1 errored, 0 waiting for review',
    });
    await t.db.pool.query(`update withdrawals set state = 'failed' where rid = 'somewhere'`);

    // A KYC webhook about an applicant we do not know puts the KYC webhooks in `degraded` for a day, in the health
    // and in the metric; one older than a day no longer counts.
    await t.db.pool.query(
      `insert into kyc_webhook_events (type, correlation_id, applicant_id, outcome, payload, received_at)
       values ('applicantReviewed', 'metrics-old', 'nobody-old', 'unknown_applicant', '{}', now() - interval '25 hours'),
              ('applicantReviewed', 'metrics-new', 'nobody-new', 'unknown_applicant', '{}', now())`,
    );
    expect((await health()).find((c) => c.component === 'KYC webhooks')).toEqual({
      component: 'KYC webhooks',
      status: 'degraded',
      detail: '1 unmatched in the last day',
    });
    expect(await t.app.metrics.metrics()).toContain('exchange_webhooks_unmatched{provider="kyc"} 1');

    // A customer gets nothing; Prometheus scrapes the port of its own.
    const customer = await sessionFor(t.deps.sessions, user);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v2/admin/metrics', headers: customer })).statusCode,
    ).toBe(403);
    const port = await freePort();
    const server = await serveMetrics(t.app.metrics, port, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_requests_total');
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
