import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let webDist: string;
let base: string;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'web-dist-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({}, { WEB_DIST: webDist });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('serves index.html for any non-API path so the client router decides', async () => {
    for (const url of ['/', '/settings', '/history/orders', '/no/such/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves built assets as files', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
  });

  it('lets browsers keep the hashed assets for good, and asks again for index.html and unhashed files', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ method: 'GET', url: '/settings' });
    expect(page.headers['cache-control']).toBe('no-cache');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=0');
  });

  it('never answers an API path with the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/none' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: ['server.route.not_found'] });
  });
});

function connect(query = ''): Promise<{ ws: WebSocket; next(): Promise<string> }> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v2/ranger/public/${query}`);
  const queue: string[] = [];
  const waiters: ((m: string) => void)[] = [];
  ws.on('message', (data) => {
    const text = data.toString();
    const waiter = waiters.shift();
    if (waiter) waiter(text);
    else queue.push(text);
  });
  const next = () =>
    new Promise<string>((resolve) => {
      const queued = queue.shift();
      if (queued !== undefined) resolve(queued);
      else waiters.push(resolve);
    });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, next }));
    ws.once('error', reject);
  });
}

describe('ranger websocket protocol', () => {
  it('answers ping with pong', async () => {
    const { ws, next } = await connect();
    ws.send('ping');
    expect(await next()).toBe('pong');
    ws.close();
  });

  it('subscribes from the query and by message, and delivers {"<stream>": payload}', async () => {
    const { ws, next } = await connect('?stream=ethbtc.trades');
    expect(JSON.parse(await next())).toEqual({
      success: { message: 'subscribed', streams: ['ethbtc.trades'] },
    });
    ws.send(JSON.stringify({ event: 'subscribe', streams: ['global.tickers'] }));
    expect(JSON.parse(await next())).toEqual({
      success: { message: 'subscribed', streams: ['ethbtc.trades', 'global.tickers'] },
    });
    expect(t.deps.hub.publish('global.tickers', { ethbtc: { last: '0.05' } })).toBe(1);
    expect(JSON.parse(await next())).toEqual({ 'global.tickers': { ethbtc: { last: '0.05' } } });
    ws.send(JSON.stringify({ event: 'unsubscribe', streams: ['global.tickers'] }));
    expect(JSON.parse(await next())).toEqual({
      success: { message: 'unsubscribed', streams: ['ethbtc.trades'] },
    });
    expect(t.deps.hub.publish('global.tickers', {})).toBe(0);
    ws.close();
  });

  it('refuses unknown events and invalid JSON without closing', async () => {
    const { ws, next } = await connect();
    ws.send('{nope');
    expect(JSON.parse(await next())).toEqual({ error: { message: 'invalid json' } });
    ws.send(JSON.stringify({ event: 'explode' }));
    expect(JSON.parse(await next())).toEqual({ error: { message: 'unsupported event' } });
    ws.send('ping');
    expect(await next()).toBe('pong');
    ws.close();
  });
});
