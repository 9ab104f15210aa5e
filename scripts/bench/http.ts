import { hashPassword, LOGIN_POLICY, SESSION_COOKIE } from '@exchange/server/bench';
import type pg from 'pg';
import { startBenchApp } from './bench-app.ts';
import { measureCeiling, shareOf } from './ceiling.ts';
import { type LoadResult, load } from './load.ts';
import { printTable, rate } from './stats.ts';
import { benchTrader } from './trader.ts';

/**
 * Identity figures: first-step logins per second (bounded by argon2id at m=19 MiB, t=2), and p50/p99 of an
 * authenticated `GET /resource/users/me` with a session cookie and with an HMAC-signed API key.
 */
export async function httpBench(fresh: () => Promise<{ pool: pg.Pool }>) {
  const { pool } = await fresh();
  const { app, deps, base } = await startBenchApp(pool);
  const password = 'Bench-Mark#2026';
  const { user, apiKeys } = await benchTrader(pool, deps.keys, {
    uid: 'IDBENCH00001',
    email: 'bench@example.com',
    passwordDigest: await hashPassword(password),
  });
  const session = await deps.sessions.create(user, '127.0.0.1', 'bench');
  const me = `${base}/api/v2/barong/resource/users/me`;
  // One account takes at most LOGIN_POLICY.maxFailures attempts at once (the lockout counts each one before its
  // hash; more in flight are refused unchecked with 429), so the login runs that many connections.
  const login = await load({
    url: `${base}/api/v2/barong/identity/sessions`,
    method: 'POST',
    connections: LOGIN_POLICY.maxFailures,
    duration: 5,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password }),
  });
  const withSession = await load({
    url: me,
    method: 'GET',
    connections: 32,
    duration: 5,
    headers: { cookie: `${SESSION_COOKIE}=${session.token}` },
  });
  const withKey = await load({ url: me, method: 'GET', connections: 32, duration: 5, apiKeys });
  const ceiling = await measureCeiling(32, 5);
  const orderCeiling = await measureCeiling(128, 5);
  await deps.core.sequencer.submit({
    type: 'Credit',
    user: Number(user),
    currency: 'eth',
    amount: 10n ** 26n,
    kind: 'deposit',
  });
  // Each request places a resting sell far from the market: a full durable order placement per request. Closed
  // loops of 64, 128 and 256 connections (latency >= connections / throughput).
  const orderRuns: { connections: number; result: LoadResult }[] = [];
  for (const connections of [64, 128, 256]) {
    const result = await load({
      url: `${base}/api/v2/peatio/market/orders`,
      method: 'POST',
      connections,
      duration: 8,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        market: 'ethbtc',
        side: 'sell',
        volume: '0.001',
        price: '9',
        ord_type: 'limit',
      }),
      apiKeys,
    });
    orderRuns.push({ connections, result });
  }
  const placed = (await pool.query('select count(*)::int as n from orders')).rows[0].n as number;
  await app.close();
  await deps.core.sequencer.drain();
  await pool.end();
  const ok = (r: LoadResult, status: string) => `${r.statusCodes[status]?.count ?? 0}/${r.total}`;
  printTable(
    'Identity and orders over HTTP on loopback (load generator in a second process)',
    ['measure', 'req/s', 'of ceiling', 'p50 ms', 'p99 ms', 'expected answers'],
    [
      [
        'ceiling: bare Fastify {"ok":true}, 32 connections',
        rate(ceiling.requestsPerSecond),
        '100 %',
        ceiling.p50,
        ceiling.p99,
        `${ok(ceiling, '200')} 200`,
      ],
      [
        'ceiling: bare Fastify {"ok":true}, 128 connections',
        rate(orderCeiling.requestsPerSecond),
        '100 %',
        orderCeiling.p50,
        orderCeiling.p99,
        `${ok(orderCeiling, '200')} 200`,
      ],
      [
        'login first step (argon2id m=19MiB t=2 p=1)',
        rate(login.requestsPerSecond),
        '-',
        login.p50,
        login.p99,
        `${ok(login, '401')} missing_otp`,
      ],
      [
        'GET /resource/users/me, session cookie',
        rate(withSession.requestsPerSecond),
        shareOf(withSession.requestsPerSecond, ceiling),
        withSession.p50,
        withSession.p99,
        `${ok(withSession, '200')} 200`,
      ],
      [
        'GET /resource/users/me, API key (HMAC)',
        rate(withKey.requestsPerSecond),
        shareOf(withKey.requestsPerSecond, ceiling),
        withKey.p50,
        withKey.p99,
        `${ok(withKey, '200')} 200`,
      ],
      ...orderRuns.map(({ connections, result }) => [
        `POST /market/orders, API key, durable ack, ${connections} connections`,
        rate(result.requestsPerSecond),
        connections === 128 ? shareOf(result.requestsPerSecond, orderCeiling) : '-',
        result.p50,
        result.p99,
        `${ok(result, '201')} 201`,
      ]),
      ['Barong (published figures)', 'not published', '-', '-', '-', '-'],
      ['Peatio orders (published figure, not run here)', '60-125', '-', '-', '-', '-'],
    ],
  );
  const answered = orderRuns.reduce((n, r) => n + (r.result.statusCodes['201']?.count ?? 0), 0);
  console.log(`orders answered 201: ${answered}; orders stored: ${placed}`);
  const client = orderRuns.find((r) => r.connections === 128)?.result;
  if (client)
    console.log(
      `load generator CPU per order at 128 connections: ${Math.round((client.cpu.user + client.cpu.system) / Math.max(1, client.total))} µs`,
    );
  return { login, withSession, withKey, orderRuns };
}
