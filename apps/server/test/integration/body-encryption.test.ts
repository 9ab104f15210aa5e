import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { nextIp, registration } from '../support/identity.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** The web app's own encryption code, run here with Node's WebCrypto, as a browser would. */
async function encrypted(body: unknown) {
  const { encryptBody } = await import('@exchange/web/encryption');
  return encryptBody(body, `${base}/api/v2/barong/identity/encryption_key`);
}

describe('encrypted request bodies', () => {
  it('publishes an RSA public key', async () => {
    const res = await fetch(`${base}/api/v2/barong/identity/encryption_key`);
    const key = (await res.json()) as { public_key: string; algorithm: string };
    expect(key.public_key).toContain('-----BEGIN PUBLIC KEY-----');
    expect(key.algorithm).toBe('RSA-OAEP-256+A256GCM');
  });

  it('opens an encrypted body before validation: a registration works and its refusals are the same', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/users',
      payload: await encrypted(registration('sealed@example.com')),
      remoteAddress: nextIp(),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().email).toBe('sealed@example.com');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/users',
      payload: await encrypted(registration('sealed2@example.com', { first_name: '' })),
      remoteAddress: nextIp(),
    });
    expect(refused.json()).toEqual({ errors: ['identity.user.field_required'] });
  });

  it('refuses a tampered envelope and changes nothing', async () => {
    const envelope = await encrypted(registration('tampered@example.com'));
    const data = Buffer.from(envelope.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/users',
      payload: { ...envelope, data: data.toString('base64') },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: ['server.invalid_json'] });
    const users = await t.db.pool.query(`select 1 from users where email = 'tampered@example.com'`);
    expect(users.rowCount).toBe(0);
  });
});
