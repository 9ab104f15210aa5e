import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devToolsExposureWarning } from '../../src/http/loopback.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, loginWithEmailCode } from '../support/identity.ts';

/** Developer tools answer only on this machine; cookies are Secure whenever PUBLIC_URL is https (probe item 10). */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({}, { DEV_TOOLS: 'true', PUBLIC_URL: 'https://exchange.example' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const tools = [
  { method: 'GET' as const, url: '/api/v2/barong/dev/outbox' },
  {
    method: 'POST' as const,
    url: '/api/v2/dev/faucet',
    payload: { blockchain_key: 'tron-sim', currency: 'trx', address: 'T', amount: '1' },
  },
  { method: 'POST' as const, url: '/api/v2/dev/mine', payload: { blockchain_key: 'tron-sim' } },
];

describe('developer tools', () => {
  it('refuse every request from another machine, or forwarded by a proxy, and change nothing', async () => {
    const height = await t.deps.wallet.chains.get('tron-sim')?.chain.latestBlock();
    for (const tool of tools) {
      for (const remoteAddress of ['10.1.2.3', '192.168.0.7', '::ffff:10.0.0.1', '2001:db8::1']) {
        const res = await t.app.inject({ ...tool, remoteAddress });
        expect(res.statusCode, `${tool.url} from ${remoteAddress}`).toBe(403);
        expect(res.json()).toEqual({ errors: ['server.dev_tools.loopback_only'] });
      }
      // A reverse proxy on this machine connects from loopback: the forwarding header gives it away.
      for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
        const res = await fetch(`${base}${tool.url}`, {
          method: tool.method,
          headers: { [header]: '203.0.113.9', 'content-type': 'application/json' },
          body: tool.payload ? JSON.stringify(tool.payload) : undefined,
        });
        expect(res.status, `${tool.url} with ${header}`).toBe(403);
      }
    }
    expect(await t.deps.wallet.chains.get('tron-sim')?.chain.latestBlock()).toBe(height);
  });

  it('answer a request made on this machine', async () => {
    const outbox = await fetch(`${base}/api/v2/barong/dev/outbox`);
    expect(outbox.status).toBe(200);
    const mined = await fetch(`${base}/api/v2/dev/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blockchain_key: 'tron-sim' }),
    });
    expect(mined.status).toBe(200);
    expect((await t.app.inject({ ...tools[0], remoteAddress: '::1' })).statusCode).toBe(200);
  });

  it('warn loudly at start when they are on and HOST is not loopback', () => {
    expect(devToolsExposureWarning({ devTools: true, host: '0.0.0.0' })).toContain(
      'WARNING: DEV_TOOLS is on',
    );
    expect(devToolsExposureWarning({ devTools: true, host: '::' })).toContain('HOST=::');
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
      expect(devToolsExposureWarning({ devTools: true, host })).toBeUndefined();
    }
    expect(devToolsExposureWarning({ devTools: false, host: '0.0.0.0' })).toBeUndefined();
  });
});

it('marks the session cookie Secure when PUBLIC_URL is https, though the request came over plain http', async () => {
  const { email, password } = await activeUser(t, 'secure@example.com');
  const session = await loginWithEmailCode(t, email, password);
  const cookies = ([] as string[]).concat(session.setCookie ?? []);
  const cookie = cookies.find((c) => c.startsWith('session='));
  expect(cookie).toMatch(/;\s*Secure/i);
  expect(cookie).toMatch(/;\s*HttpOnly/i);
});
