import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSweep } from '../../src/modules/identity/session-sweep.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, cookieHeader, lastCode, nextIp, outbox } from '../support/identity.ts';

// Issue 31, part 1: the Devices list and its ends, and the security log's new entries, over raw HTTP.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

interface Session {
  cookie: string;
  csrf: string;
}

/** Logs in with the emailed code from a browser with this user agent. */
async function loginAs(email: string, password: string, agent: string): Promise<Session> {
  const headers = { 'user-agent': agent };
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/sessions/resent_otp',
    remoteAddress: nextIp(),
    headers,
    payload: { session_type: 'email', email, password },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/sessions',
    remoteAddress: nextIp(),
    headers,
    payload: { session_type: 'email', email, password, code: await lastCode(t, email) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: cookieHeader(res.headers['set-cookie']), csrf: res.json().csrf_token };
}

const call = (
  method: 'GET' | 'DELETE',
  url: string,
  session?: Session,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url: `/api/v2/barong${url}`,
    headers: { ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}), ...headers },
  });

interface SessionItem {
  id: string;
  browser: string;
  os: string;
  current: boolean;
  user_ip: string | null;
}
interface ActivityItem {
  action: string;
  result: string;
  topic: string;
  data: string | null;
}

const sessionsOf = async (s: Session) => (await call('GET', '/resource/sessions', s)).json() as SessionItem[];
const log = async (s: Session, topic = 'all') =>
  (await call('GET', `/resource/users/activity/${topic}?limit=100`, s)).json() as ActivityItem[];

describe('Devices: GET /resource/sessions and ending sessions', () => {
  it('lists live sessions with browser, OS and address, marks this device, and ends another one at once', async () => {
    const { email, password } = await activeUser(t, 'devices@example.com');
    const laptop = await loginAs(email, password, FIREFOX_WINDOWS);
    const phone = await loginAs(email, password, CHROME_LINUX);
    const listed = await call('GET', '/resource/sessions', laptop);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers.total).toBe('2');
    const items = listed.json() as SessionItem[];
    expect(items.map((s) => [s.browser, s.os, s.current])).toEqual([
      ['Chrome', 'Linux', false],
      ['Firefox', 'Windows', true],
    ]);
    expect(items[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(items[0]?.user_ip).toMatch(/^10\.2\./);

    const other = items.find((s) => !s.current)?.id ?? '';
    const ended = await call('DELETE', `/resource/sessions/${other}`, laptop);
    expect(ended.statusCode, ended.body).toBe(204);
    // The ended session is refused at once, and the list no longer shows it.
    const refused = await call('GET', '/resource/users/me', phone);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ errors: ['authz.invalid_session'] });
    expect((await sessionsOf(laptop)).map((s) => s.current)).toEqual([true]);
    // Twice: it is gone (404 like any unknown id).
    const again = await call('DELETE', `/resource/sessions/${other}`, laptop);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ errors: ['resource.session.doesnt_exist'] });

    const entries = await log(laptop, 'session');
    const end = entries.find((e) => e.action === 'session.end');
    expect(end?.result).toBe('succeed');
    expect(JSON.parse(end?.data ?? '{}')).toMatchObject({
      reason: 'user',
      session: other,
      browser: 'Chrome',
    });
  });

  it('refuses the current session by id (422), and ends all the others with DELETE /resource/sessions', async () => {
    const { email, password } = await activeUser(t, 'others@example.com');
    const a = await loginAs(email, password, FIREFOX_WINDOWS);
    const b = await loginAs(email, password, FIREFOX_WINDOWS);
    const c = await loginAs(email, password, CHROME_LINUX);
    const mine = (await sessionsOf(a)).find((s) => s.current)?.id ?? '';
    const self = await call('DELETE', `/resource/sessions/${mine}`, a);
    expect(self.statusCode).toBe(422);
    expect(self.json()).toEqual({ errors: ['resource.session.current'] });
    expect((await call('GET', '/resource/users/me', a)).statusCode).toBe(200);

    const all = await call('DELETE', '/resource/sessions', a);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ ended: 2 });
    for (const s of [b, c]) expect((await call('GET', '/resource/users/me', s)).statusCode).toBe(401);
    expect((await call('GET', '/resource/users/me', a)).statusCode).toBe(200);
    const end = (await log(a, 'session')).find((e) => e.action === 'session.end');
    expect(JSON.parse(end?.data ?? '{}')).toEqual({ reason: 'others', sessions: 2 });
  });
});

describe('Devices and the security log: raw-client refusals', () => {
  it("answers another user's session id exactly like an unknown one, and ends nothing (no IDOR)", async () => {
    const alice = await activeUser(t, 'alice.devices@example.com');
    const mallory = await activeUser(t, 'mallory.devices@example.com');
    const aliceSession = await loginAs(alice.email, alice.password, SAFARI_MAC);
    const mallorySession = await loginAs(mallory.email, mallory.password, CHROME_LINUX);
    const aliceId = (await sessionsOf(aliceSession))[0]?.id ?? '';

    const foreign = await call('DELETE', `/resource/sessions/${aliceId}`, mallorySession);
    const unknown = await call(
      'DELETE',
      '/resource/sessions/00000000-0000-4000-8000-000000000000',
      mallorySession,
    );
    const malformed = await call('DELETE', '/resource/sessions/1%27%20or%201=1', mallorySession);
    for (const res of [foreign, unknown, malformed]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['resource.session.doesnt_exist'] });
    }
    expect((await call('GET', '/resource/users/me', aliceSession)).statusCode).toBe(200);
    // Each sees only their own sessions and their own log.
    expect((await sessionsOf(mallorySession)).map((s) => s.browser)).toEqual(['Chrome']);
    const malloryLog = await log(mallorySession);
    expect(malloryLog.length).toBeGreaterThan(0);
    expect(JSON.stringify(malloryLog)).not.toContain('macOS');
    expect(JSON.stringify(malloryLog)).not.toContain(aliceId);
  });

  it('needs a session cookie for the list, the ends and the log', async () => {
    for (const [method, url] of [
      ['GET', '/resource/sessions'],
      ['DELETE', '/resource/sessions'],
      ['DELETE', '/resource/sessions/00000000-0000-4000-8000-000000000000'],
      ['GET', '/resource/users/activity/all'],
    ] as const) {
      const res = await call(method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ errors: ['authz.invalid_session'] });
    }
  });

  it('refuses both DELETEs without the CSRF token or with a wrong one, and ends nothing', async () => {
    const { email, password } = await activeUser(t, 'csrf.devices@example.com');
    const a = await loginAs(email, password, FIREFOX_WINDOWS);
    const b = await loginAs(email, password, CHROME_LINUX);
    const other = (await sessionsOf(a)).find((s) => !s.current)?.id ?? '';
    for (const url of [`/resource/sessions/${other}`, '/resource/sessions']) {
      const missing = await t.app.inject({
        method: 'DELETE',
        url: `/api/v2/barong${url}`,
        headers: { cookie: a.cookie },
      });
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toEqual({ errors: ['authz.missing_csrf_token'] });
      const wrong = await t.app.inject({
        method: 'DELETE',
        url: `/api/v2/barong${url}`,
        headers: { cookie: a.cookie, 'x-csrf-token': b.csrf },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ errors: ['authz.csrf_token_mismatch'] });
    }
    expect((await call('GET', '/resource/users/me', b)).statusCode).toBe(200);
    expect(await sessionsOf(a)).toHaveLength(2);
  });
});

describe('the security log: logins, new devices, ends by idle and by staff', () => {
  it('records failed logins with their reason, and mails a new-device notice with the anti-phishing phrase', async () => {
    const { email, password } = await activeUser(t, 'newdevice@example.com');
    const first = await loginAs(email, password, FIREFOX_WINDOWS);
    const phrase = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/barong/resource/users/anti_phishing',
      headers: { cookie: first.cookie, 'x-csrf-token': first.csrf },
      payload: { phrase: 'green kestrel' },
    });
    expect(phrase.statusCode, phrase.body).toBe(200);
    // The same device (a newer version of the browser) sends nothing.
    await loginAs(email, password, FIREFOX_WINDOWS.replaceAll('128.0', '129.0'));
    expect((await outbox(t, email))[0]?.subject).not.toMatch(/new sign-in/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/sessions',
      remoteAddress: nextIp(),
      payload: { session_type: 'email', email, password: 'Wrong#Passw0rd' },
    });
    expect(wrong.statusCode).toBe(401);

    const s = await loginAs(email, password, SAFARI_MAC);
    const [notice] = await outbox(t, email);
    expect(notice?.subject).toBe('Security notice: new sign-in to your account');
    expect(notice?.body).toContain('Safari on macOS');
    expect(notice?.body).toContain('Your anti-phishing phrase: green kestrel');

    const logins = (await log(s, 'session')).filter((e) => e.action === 'login');
    expect(
      logins.map((e) => [e.result, JSON.parse(e.data ?? '{}').reason ?? JSON.parse(e.data ?? '{}').device]),
    ).toEqual([
      ['succeed', 'Safari/macOS'],
      ['failed', 'password'],
      ['succeed', 'Firefox/Windows'],
      ['succeed', 'Firefox/Windows'],
    ]);
    expect(JSON.parse(logins[0]?.data ?? '{}').new_device).toBe(true);
    expect(JSON.parse(logins[3]?.data ?? '{}').new_device).toBe(false);
  });

  it('records sessions that went idle once (the sweep), and sessions ended by staff', async () => {
    const { email, password } = await activeUser(t, 'idle@example.com');
    const a = await loginAs(email, password, FIREFOX_WINDOWS);
    const b = await loginAs(email, password, CHROME_LINUX);
    const idleId = (await sessionsOf(a)).find((s) => !s.current)?.id ?? '';
    await t.db.pool.query(
      `update sessions set last_seen_at = now() - interval '61 minutes' where public_id = $1`,
      [idleId],
    );
    const sweep = new SessionSweep(t.db.pool, 60, { warn: () => {} });
    expect(await sweep.run()).toBeGreaterThanOrEqual(1);
    await sweep.run();
    expect((await call('GET', '/resource/users/me', b)).statusCode).toBe(401);
    const ends = (await log(a, 'session')).filter((e) => e.action === 'session.end');
    expect(ends.map((e) => JSON.parse(e.data ?? '{}'))).toEqual([{ reason: 'idle', session: idleId }]);

    const user = (await t.db.pool.query('select id from users where email = $1', [email])).rows[0];
    await t.deps.sessions.revokeAllForUser(String(user.id), undefined, 'staff');
    const row = (
      await t.db.pool.query(
        'select end_reason from sessions where user_id = $1 and revoked_at is not null order by revoked_at desc limit 1',
        [user.id],
      )
    ).rows[0];
    expect(row.end_reason).toBe('staff');
  });
});
