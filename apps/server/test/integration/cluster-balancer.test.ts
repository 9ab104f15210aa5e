import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyBinary, startHaproxy } from '../../../../scripts/cluster/haproxy.ts';
import { signature } from '../../src/modules/api-keys/hmac.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { TestCluster } from '../support/cluster.ts';
import { tablesCaughtUp } from '../support/db.ts';
import { NATS_SERVER } from '../support/nats.ts';
import { freePort } from '../support/ports.ts';
import { missing } from '../support/required.ts';

// HAProxy, configured as `npm run cluster` runs it, in front of two api processes: an api process SIGKILLed
// under a stream of orders. No order is sent twice by the balancer, none hangs, the survivor takes the traffic,
// and every order refused in the crash is placed exactly once by its retry with the same client_id.
let cluster: TestCluster;
let balancer: Awaited<ReturnType<typeof startHaproxy>>;
let dir = '';
let base = '';
let metricsPorts: Record<string, number> = {};

beforeAll(async () => {
  if (!NATS_SERVER) return;
  haproxyBinary();
  cluster = await TestCluster.create();
  await cluster.start('core1', 'core');
  metricsPorts = { api1: await freePort(), core2: await freePort() };
  await Promise.all([
    cluster.start('api1', 'api', undefined, { METRICS_PORT: String(metricsPorts.api1) }),
    cluster.start('api2', 'api'),
    cluster.start('core2', 'core', 'standby:', { METRICS_PORT: String(metricsPorts.core2) }),
  ]);
  dir = await mkdtemp(path.join(tmpdir(), 'exchange-haproxy-'));
  const port = await freePort();
  const backend = (name: string) => ({
    name,
    host: '127.0.0.1',
    port: Number(new URL(cluster.get(name).base).port),
  });
  balancer = await startHaproxy(
    { host: '127.0.0.1', port, api: [backend('api1'), backend('api2')], ws: [] },
    dir,
  );
  base = `http://127.0.0.1:${port}`;
}, 180_000);

afterAll(async () => {
  await balancer?.stop();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(missing(NATS_SERVER, 'nats-server'))('the cluster behind HAProxy', () => {
  it('loses no order and sends none twice when an api process dies under load', {
    timeout: 120_000,
  }, async () => {
    const { kid, secret } = await apiKeyFor(cluster.db.pool, 'alice@example.com');
    let lastNonce = 0;
    const place = async (clientId: string) => {
      lastNonce = Math.max(Date.now(), lastNonce + 1);
      const nonce = String(lastNonce);
      const started = Date.now();
      const res = await fetch(`${base}/api/v2/peatio/market/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-auth-apikey': kid,
          'x-auth-nonce': nonce,
          'x-auth-signature': signature(secret, nonce, kid),
        },
        body: JSON.stringify({
          market: 'ethbtc',
          side: 'buy',
          volume: '0.001',
          price: '0.0001',
          ord_type: 'limit',
          client_id: clientId,
        }),
        signal: AbortSignal.timeout(15_000),
      }).catch((err: Error) => {
        // A request on a kept-alive connection to the server that died: HAProxy closes the client's connection
        // without an answer (as a server closing an idle connection would), so the client retries it.
        if (/fetch failed/.test(err.message) && err.cause && /other side closed/.test(String(err.cause)))
          return undefined;
        throw err;
      });
      if (!res) return { status: 0, body: {}, ms: Date.now() - started, at: started };
      const body = (await res.json()) as { id?: number; errors?: string[] };
      return { status: res.status, body, ms: Date.now() - started, at: started };
    };
    // The balancer is up and both servers take orders.
    expect((await place('warm-up')).status).toBe(201);

    const answers: {
      clientId: string;
      status: number;
      body: { id?: number; errors?: string[] };
      at: number;
    }[] = [];
    let running = true;
    let killedAt = 0;
    const senders = Array.from({ length: 8 }, async (_, sender) => {
      for (let n = 0; running; n++) {
        const clientId = `s${sender}-${n}`;
        answers.push({ clientId, ...(await place(clientId)) });
      }
    });
    await new Promise((r) => setTimeout(r, 1_000));
    killedAt = Date.now();
    cluster.get('api2').process.child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 4_000));
    running = false;
    await Promise.all(senders);

    // Each answer is the order, the balancer's own 502, or a connection closed without an answer (0): the request
    // reached the dead server, and its outcome is for the retry to learn. Never a 400 from a body lost on the
    // way, never a hang.
    for (const answer of answers) {
      expect([201, 502, 0], JSON.stringify(answer)).toContain(answer.status);
      if (answer.status === 502) expect(answer.body).toEqual({ errors: ['server.upstream_unavailable'] });
    }
    const failed = answers.filter((a) => a.status !== 201);
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    console.log(
      `api2 killed under 8 senders: ${answers.length} orders, ${count(201)} placed at once, ${count(502)} answered 502, ${count(0)} connections closed unanswered`,
    );
    // Only the requests in flight at the kill failed; afterwards the survivor took everything.
    for (const answer of failed) expect(answer.at).toBeLessThan(killedAt + 2_500);
    expect(answers.filter((a) => a.at > killedAt + 2_500 && a.status === 201).length).toBeGreaterThan(0);

    // Retried with the same client_id: the first placement's outcome, or the order placed now; once each.
    for (const answer of failed) {
      const retry = await place(answer.clientId);
      expect(retry.status).toBe(201);
      answer.status = 201;
      answer.body = retry.body;
    }
    const ids = new Map(answers.map((a) => [a.clientId, a.body.id]));
    expect(new Set(ids.values()).size).toBe(answers.length);
    await tablesCaughtUp(cluster.db.pool);
    const stored = await cluster.db.pool.query(
      `select count(*)::int as n from orders o join users u on u.id = o.user_id
       where u.email = 'alice@example.com' and o.price = 0.0001`,
    );
    // The warm-up order is the one more.
    expect(stored.rows[0].n).toBe(answers.length + 1);
  });

  it('serves metrics from every role, a standby core waiting for the lease included', async () => {
    const scrape = async (name: string) =>
      (await fetch(`http://127.0.0.1:${metricsPorts[name]}/metrics`)).text();
    const api = await scrape('api1');
    expect(api).toContain('exchange_nats_connected 1');
    expect(api).toMatch(/exchange_replica_lag_batches \d+/);
    expect(api).toContain('exchange_core_active 0');
    expect(api).toContain('exchange_core_available 1');
    const standby = await scrape('core2');
    expect(standby).toContain('exchange_starting 1');
    expect(standby).toContain('exchange_core_active 0');
    expect(standby).toContain('process_cpu_seconds_total');
  });
});
