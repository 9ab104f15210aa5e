import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp } from '../../src/compose.ts';
import { createTestApp, type TestApp, testConfig } from '../support/app.ts';
import { activeUser, cookieHeader, lastCode, outbox } from '../support/identity.ts';
import { writeTestCountryDb } from '../support/mmdb-writer.ts';
import { startServerProcess } from '../support/process.ts';

// Issue 31, part 1: a login from a new country mails a security notice (with the anti-phishing phrase), over raw
// HTTP behind a trusted proxy (TRUST_PROXY) that names the client's address. The country database is a real
// MaxMind DB file written by the test support (198.51.100.0/24 AT, 203.0.113.0/24 DE, 192.0.2.0/24 FR).
const PROXY = '10.0.0.1';
const dir = mkdtempSync(path.join(tmpdir(), 'geoip-login-'));
const countryDb = path.join(dir, 'GeoLite2-Country.mmdb');
writeTestCountryDb(countryDb);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { TRUST_PROXY: PROXY, GEOIP_COUNTRY_DB: countryDb });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

let host = 0;
/** A fresh address in one of the database's networks, so per-address limits stay out of the way. */
const at = (net: '198.51.100' | '203.0.113' | '192.0.2') => `${net}.${(++host % 250) + 1}`;

interface Session {
  cookie: string;
  csrf: string;
}

/**
 * Logs in with the emailed code from `client`: through the proxy (which names it in X-Forwarded-For), or, for a
 * loopback address, straight from this machine.
 */
async function loginFrom(app: TestApp, email: string, password: string, client: string, agent = FIREFOX) {
  const direct = client === '127.0.0.1' || client === '::1';
  const request = {
    remoteAddress: direct ? client : PROXY,
    headers: { 'user-agent': agent, ...(direct ? {} : { 'x-forwarded-for': client }) },
  };
  const sent = await app.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/sessions/resent_otp',
    ...request,
    payload: { session_type: 'email', email, password },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/sessions',
    ...request,
    payload: { session_type: 'email', email, password, code: await lastCode(app, email) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: cookieHeader(res.headers['set-cookie']), csrf: res.json().csrf_token as string };
}

/** The new-sign-in notices (device, country or both) mailed to `email`, newest first. */
async function notices(app: TestApp, email: string) {
  return (await outbox(app, email, 100)).filter((m) => m.template?.startsWith('security_new_'));
}

/** The user's successful logins in the security log, newest first, with their parsed data. */
async function logins(app: TestApp, s: Session) {
  const res = await app.app.inject({
    method: 'GET',
    url: '/api/v2/barong/resource/users/activity/session?limit=100',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { action: string; result: string; user_ip: string; data: string | null }[])
    .filter((e) => e.action === 'login' && e.result === 'succeed')
    .map((e): Record<string, unknown> => ({ ip: e.user_ip, ...JSON.parse(e.data ?? '{}') }));
}

async function setPhrase(s: Session, phrase: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/barong/resource/users/anti_phishing',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    payload: { phrase },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('new country at login (GEOIP_COUNTRY_DB)', () => {
  it('mails "new country" with the anti-phishing phrase for a login from DE after AT, and nothing the next time', async () => {
    const { email, password } = await activeUser(t, 'country@example.com');
    const austria = at('198.51.100');
    const first = await loginFrom(t, email, password, austria);
    await setPhrase(first, 'amber heron');
    expect(await notices(t, email)).toEqual([]);

    const germany = at('203.0.113');
    await loginFrom(t, email, password, germany);
    const mails = await notices(t, email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.template).toBe('security_new_country');
    expect(mail?.subject).toBe('Security notice: sign-in to your account from a new country');
    expect(mail?.body).toContain('from a country it was never used from before: Firefox on Windows');
    expect(mail?.body).toContain(`from ${germany} in Germany (DE)`);
    expect(mail?.body).toContain('Your anti-phishing phrase: amber heron');

    // Germany again, from another address: known now, no mail.
    const again = await loginFrom(t, email, password, at('203.0.113'));
    expect(await notices(t, email)).toHaveLength(1);

    const log = await logins(t, again);
    expect(log.map((e) => [e.ip, e.country, e.new_country, e.new_device])).toEqual([
      [expect.stringMatching(/^203\.0\.113\./), 'DE', false, false],
      [germany, 'DE', true, false],
      [austria, 'AT', false, false],
    ]);
  });

  it('sends one mail saying both when the device and the country are new together', async () => {
    const { email, password } = await activeUser(t, 'both@example.com');
    const first = await loginFrom(t, email, password, at('198.51.100'), FIREFOX);
    await setPhrase(first, 'quiet lantern');
    const france = at('192.0.2');
    await loginFrom(t, email, password, france, SAFARI);
    const mails = await notices(t, email);
    expect(mails.map((m) => m.template)).toEqual(['security_new_device_country']);
    expect(mails[0]?.subject).toBe(
      'Security notice: sign-in to your account from a new device and a new country',
    );
    expect(mails[0]?.body).toContain(
      'from a new device and from a country it was never used from before: Safari on macOS',
    );
    expect(mails[0]?.body).toContain(`from ${france} in France (FR)`);
    expect(mails[0]?.body).toContain('Your anti-phishing phrase: quiet lantern');
  });

  it('gives a loopback login no country and no mail, and a first country after such logins no mail either', async () => {
    const { email, password } = await activeUser(t, 'loopback@example.com');
    await loginFrom(t, email, password, '127.0.0.1');
    // Earlier logins without a country are no baseline: the first country seen is not "new".
    await loginFrom(t, email, password, at('198.51.100'));
    await loginFrom(t, email, password, '::1');
    expect(await notices(t, email)).toEqual([]);
    const s = await loginFrom(t, email, password, at('203.0.113'));
    expect((await notices(t, email)).map((m) => m.template)).toEqual(['security_new_country']);

    const log = await logins(t, s);
    expect(log.map((e) => [e.ip, e.country ?? null, e.new_country ?? null])).toEqual([
      [expect.stringMatching(/^203\./), 'DE', true],
      ['::1', null, null],
      [expect.stringMatching(/^198\./), 'AT', false],
      ['127.0.0.1', null, null],
    ]);
  });

  it('knows no country without GEOIP_COUNTRY_DB: devices only, as before', async () => {
    const plain = await createTestApp({}, { TRUST_PROXY: PROXY });
    try {
      const { email, password } = await activeUser(plain, 'nogeo@example.com');
      await loginFrom(plain, email, password, at('198.51.100'));
      const s = await loginFrom(plain, email, password, at('203.0.113'));
      expect(await notices(plain, email)).toEqual([]);
      const log = await logins(plain, s);
      expect(log).toHaveLength(2);
      for (const entry of log) expect(Object.keys(entry)).not.toContain('country');
    } finally {
      await plain.close();
    }
  });
});

describe('a bad GEOIP_COUNTRY_DB stops the start with one clear line', () => {
  const junk = path.join(dir, 'junk.mmdb');
  beforeAll(() => writeFileSync(junk, 'not a MaxMind database\n'.repeat(100)));

  it('refuses to compose the app', async () => {
    await expect(composeApp(testConfig({ GEOIP_COUNTRY_DB: junk }), t.db.pool)).rejects.toThrow(
      /^Invalid configuration: GEOIP_COUNTRY_DB: .*junk\.mmdb: not a MaxMind DB file/,
    );
    await expect(
      composeApp(testConfig({ GEOIP_COUNTRY_DB: path.join(dir, 'nowhere.mmdb') }), t.db.pool),
    ).rejects.toThrow(/GEOIP_COUNTRY_DB: .*nowhere\.mmdb: cannot be read \(ENOENT\)/);
  });

  it('makes the server process exit with that line (no stack), before it opens a database', async () => {
    const data = mkdtempSync(path.join(dir, 'data-'));
    let output = '';
    try {
      await startServerProcess({ DATA_DIR: data, GEOIP_COUNTRY_DB: junk, PORT: '0' }, 30_000);
    } catch (err) {
      output = String(err);
    }
    expect(output).toMatch(/server exited early/);
    expect(output).toMatch(/Invalid configuration: GEOIP_COUNTRY_DB: .*junk\.mmdb: not a MaxMind DB file/);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
