import net from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPool } from '../../src/db/pool.ts';
import { createMetrics } from '../../src/modules/metrics/registry.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { freePort } from '../support/ports.ts';

// Monitoring must stay up in an incident: a scrape never fails because the database is down or stalled.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t.close());

/** A registry like the app's, over the app's core, streams and wallet, but another database. */
function metricsOver(url: string) {
  const db = createPool(url, 2);
  const registry = createMetrics({
    app: Fastify(),
    db,
    core: t.deps.core,
    hub: t.deps.hub,
    wallet: t.deps.wallet,
    dataDir: '/',
  });
  return { registry, db };
}

describe('metrics in an incident', () => {
  it('answers a scrape while the database refuses connections, with what this process knows', async () => {
    const { registry, db } = metricsOver(`postgres://nobody@127.0.0.1:${await freePort()}/none`);
    try {
      const text = await registry.metrics();
      expect(text).toContain('exchange_database_up 0');
      expect(text).toContain('exchange_core_available 1');
      expect(text).toContain('exchange_core_active 1');
      expect(text).toMatch(/exchange_db_pool_connections\{state="waiting"\} \d+/);
      expect(text).toMatch(/exchange_disk_free_bytes [1-9]/);
      // The series read from the database are left out, not failed.
      expect(text).not.toMatch(/exchange_withdrawals_waiting\{/);
      expect(text).not.toMatch(/exchange_webhooks_unmatched\{/);
    } finally {
      await db.end();
    }
  });

  it('answers within its time limit while the database accepts but never answers', async () => {
    const hung: net.Socket[] = [];
    const server = net.createServer((socket) => hung.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const { registry, db } = metricsOver(`postgres://nobody@127.0.0.1:${port}/none`);
    try {
      for (let scrape = 0; scrape < 2; scrape++) {
        const started = Date.now();
        const text = await registry.metrics();
        expect(Date.now() - started).toBeLessThan(2_500);
        expect(text).toContain('exchange_database_up 0');
      }
    } finally {
      for (const socket of hung) socket.destroy();
      server.close();
      await db.end().catch(() => {});
    }
  });

  it('counts every open websocket, subscribed or not', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${base.replace('http', 'ws')}/api/v2/ranger/public`;
    const sockets = await Promise.all(
      [url, `${url}?stream=ethbtc.trades`].map(
        (u) =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(u);
            ws.once('open', () => resolve(ws));
            ws.once('error', reject);
          }),
      ),
    );
    try {
      const text = await t.app.metrics.metrics();
      expect(text).toContain('exchange_ws_clients 2');
      expect(text).toContain('exchange_ws_subscribed_clients 1');
    } finally {
      for (const ws of sockets) ws.close();
    }
  });
});
