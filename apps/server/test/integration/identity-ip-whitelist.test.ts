import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import {
  type BarongSession,
  cookieHeader,
  enableTwoFactor,
  forgetUsedTotp,
  oathtoolCode,
  signedInUser,
} from '../support/identity.ts';

// Issue 31, part 2: the login IP whitelist over raw HTTP (no browser). The app runs without TRUST_PROXY, so a
// request's address is its socket's, whatever X-Forwarded-For says.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * The address a test's changes come from ("home"; one per test, so the per-address limit of 10 changes a
 * minute stays out of the way), and one outside every list.
 */
let HOME = '192.0.2.10';
const ELSEWHERE = '198.51.100.20';

const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  from: string,
  session?: BarongSession,
  payload?: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url: `/api/v2/barong${url}`,
    remoteAddress: from,
    headers: { ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}), ...headers },
    ...(payload ? { payload } : {}),
  });

/** A signed-in user with two-factor on: email, password, TOTP secret and session. */
async function twoFactorUser(email: string) {
  const user = await signedInUser(t, email);
  const secret = await enableTwoFactor(t, user.session, email);
  return { ...user, secret };
}

/** A fresh authenticator code (the last one's step is forgotten first, as if 30 s had passed). */
async function code(email: string, secret: string): Promise<string> {
  await forgetUsedTotp(t, email);
  return oathtoolCode(secret);
}

const login = async (email: string, password: string, otp: string, from: string, headers = {}) =>
  call('POST', '/identity/sessions', from, undefined, { email, password, otp_code: otp }, headers);

const entries = async (s: BarongSession) =>
  (await call('GET', '/resource/ip_whitelist', HOME, s)).json() as { id: string; ip: string }[];

const logOf = async (s: BarongSession) =>
  (await call('GET', '/resource/users/activity/ip_whitelist?limit=100', HOME, s)).json() as {
    action: string;
    result: string;
    user_ip: string;
    data: string | null;
  }[];

describe('login IP whitelist: managing the list', () => {
  it('adds an entry in its canonical form only with a fresh code, and refuses a list that shuts this address out', async () => {
    const u = await twoFactorUser('wl-manage@example.com');
    const s = u.session;
    const add = (ip: string, totp?: string) =>
      call('POST', '/resource/ip_whitelist', HOME, s, {
        ip,
        ...(totp === undefined ? {} : { totp_code: totp }),
      });

    const none = await add('192.0.2.0/24');
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ errors: ['resource.otp.missing_code'] });
    const wrong = await add('192.0.2.0/24', oathtoolCode(u.secret, 300));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ errors: ['resource.otp.invalid_code'] });
    const bad = await add('192.0.2.300', await code(u.email, u.secret));
    expect(bad.json()).toEqual({ errors: ['resource.ip_whitelist.invalid_ip'] });
    // A list without this request's address would lock the user out at the next login: refused, code unused.
    const outside = await add('203.0.113.0/24', oathtoolCode(u.secret));
    expect(outside.statusCode).toBe(422);
    expect(outside.json()).toEqual({ errors: ['resource.ip_whitelist.excludes_current_ip'] });
    expect(await entries(s)).toEqual([]);

    const totp = oathtoolCode(u.secret);
    const added = await add('::ffff:192.0.2.77/120', totp);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ ip: '192.0.2.0/24' });
    // The same 30-second step again: refused as used, nothing added.
    const replay = await add('203.0.113.9', totp);
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toEqual({ errors: ['resource.otp.code_used'] });
    // Another spelling of the same range is the same entry.
    const twice = await add('192.0.2.5/24', await code(u.email, u.secret));
    expect(twice.json()).toEqual({ errors: ['resource.ip_whitelist.duplicate'] });
    const other = await add('2001:DB8:0::/32', await code(u.email, u.secret));
    expect(other.statusCode).toBe(201);
    expect((await entries(s)).map((e) => e.ip)).toEqual(['192.0.2.0/24', '2001:db8::/32']);

    const log = await logOf(s);
    expect(
      log.filter((e) => e.action === 'ip_whitelist.add').map((e) => JSON.parse(e.data ?? '{}').ip),
    ).toEqual(['2001:db8::/32', '192.0.2.0/24']);
  });

  it('refuses users without two-factor, and changes without the CSRF token', async () => {
    HOME = '192.0.2.13';
    const plain = await signedInUser(t, 'wl-no2fa@example.com');
    const refused = await call('POST', '/resource/ip_whitelist', HOME, plain.session, {
      ip: HOME,
      totp_code: '123456',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errors: ['resource.otp.not_enabled'] });
    const noCsrf = await call(
      'POST',
      '/resource/ip_whitelist',
      HOME,
      undefined,
      { ip: HOME, totp_code: '123456' },
      {
        cookie: plain.session.cookie,
      },
    );
    expect(noCsrf.statusCode).toBe(401);
    expect(noCsrf.json()).toEqual({ errors: ['authz.missing_csrf_token'] });
  });

  it("answers another user's entry exactly like an unknown one, and changes nothing (no IDOR)", async () => {
    HOME = '192.0.2.12';
    const alice = await twoFactorUser('wl-alice@example.com');
    const mallory = await twoFactorUser('wl-mallory@example.com');
    const added = await call('POST', '/resource/ip_whitelist', HOME, alice.session, {
      ip: HOME,
      totp_code: await code(alice.email, alice.secret),
    });
    const id = added.json().id as string;
    expect(await entries(mallory.session)).toEqual([]);
    for (const target of [id, '999999999', 'x']) {
      const res = await call(
        'DELETE',
        `/resource/ip_whitelist/${target}?totp_code=${await code(mallory.email, mallory.secret)}`,
        HOME,
        mallory.session,
      );
      expect(res.statusCode, target).toBe(404);
      expect(res.json()).toEqual({ errors: ['resource.ip_whitelist.doesnt_exist'] });
    }
    expect((await entries(alice.session)).map((e) => e.id)).toEqual([id]);
    // Alice removes it herself: wrong code refused, a fresh one accepted.
    const wrong = await call(
      'DELETE',
      `/resource/ip_whitelist/${id}?totp_code=${oathtoolCode(alice.secret, 300)}`,
      HOME,
      alice.session,
    );
    expect(wrong.json()).toEqual({ errors: ['resource.otp.invalid_code'] });
    const removed = await call(
      'DELETE',
      `/resource/ip_whitelist/${id}?totp_code=${await code(alice.email, alice.secret)}`,
      HOME,
      alice.session,
    );
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await entries(alice.session)).toEqual([]);
    expect((await logOf(alice.session)).map((e) => e.action)).toContain('ip_whitelist.remove');
  });
});

describe('login IP whitelist: logins', () => {
  it('refuses a right login from another address only after both factors, and logs it; any spelling of a listed address gets in', async () => {
    HOME = '192.0.2.11';
    const u = await twoFactorUser('wl-login@example.com');
    const added = await call('POST', '/resource/ip_whitelist', HOME, u.session, {
      ip: '192.0.2.0/28',
      totp_code: await code(u.email, u.secret),
    });
    expect(added.statusCode).toBe(201);

    // Without the password nothing tells the list apart: the same answer as for an account that does not exist.
    const wrongPassword = await login(
      u.email,
      'Not-The-Password#1',
      await code(u.email, u.secret),
      ELSEWHERE,
    );
    const unknown = await login('nobody-here@example.com', 'Not-The-Password#1', '123456', ELSEWHERE);
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().errors).toEqual(unknown.json().errors);
    expect(wrongPassword.json().errors).toEqual(['identity.session.invalid_params']);

    const refused = await login(u.email, u.password, await code(u.email, u.secret), ELSEWHERE);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errors: ['identity.session.ip_not_allowed'] });
    expect(refused.headers['set-cookie']).toBeUndefined();
    // The IPv4-mapped IPv6 form of an address outside the list is just as outside.
    const mapped = await login(u.email, u.password, await code(u.email, u.secret), `::ffff:${ELSEWHERE}`);
    expect(mapped.json()).toEqual({ errors: ['identity.session.ip_not_allowed'] });
    // X-Forwarded-For without TRUST_PROXY names nothing: the socket's address is the client's.
    const forwarded = await login(u.email, u.password, await code(u.email, u.secret), ELSEWHERE, {
      'x-forwarded-for': '192.0.2.3',
    });
    expect(forwarded.statusCode).toBe(403);
    expect(forwarded.json()).toEqual({ errors: ['identity.session.ip_not_allowed'] });

    for (const from of ['192.0.2.3', '::ffff:192.0.2.4', '::ffff:c000:205']) {
      const ok = await login(u.email, u.password, await code(u.email, u.secret), from);
      expect(ok.statusCode, `${from}: ${ok.body}`).toBe(200);
      expect(cookieHeader(ok.headers['set-cookie'])).toContain('=');
    }

    const refusals = (await logOf(u.session)).filter((e) => e.action === 'login');
    expect(refusals).toHaveLength(3);
    expect(refusals.map((e) => [e.result, e.user_ip])).toEqual([
      ['failed', ELSEWHERE],
      ['failed', `::ffff:${ELSEWHERE}`],
      ['failed', ELSEWHERE],
    ]);
    expect(JSON.parse(refusals[0]?.data ?? '{}')).toEqual({ reason: 'ip_not_allowed' });
  });
});

describe('login IP whitelist behind a proxy (TRUST_PROXY)', () => {
  it("takes the address the trusted proxy names, and a client's own X-Forwarded-For entry from nowhere else", async () => {
    const proxied = await createTestApp({}, { TRUST_PROXY: '10.0.0.1' });
    const previous = t;
    t = proxied;
    HOME = '192.0.2.14';
    try {
      const u = await twoFactorUser('wl-proxy@example.com');
      const viaProxy = { 'x-forwarded-for': HOME };
      const added = await call(
        'POST',
        '/resource/ip_whitelist',
        '10.0.0.1',
        u.session,
        { ip: HOME, totp_code: await code(u.email, u.secret) },
        viaProxy,
      );
      expect(added.statusCode, added.body).toBe(201);
      const ok = await login(u.email, u.password, await code(u.email, u.secret), '10.0.0.1', viaProxy);
      expect(ok.statusCode, ok.body).toBe(200);
      // The client wrote HOME itself; the proxy appended the real address, and only that one is trusted.
      const spoofed = await login(u.email, u.password, await code(u.email, u.secret), '10.0.0.1', {
        'x-forwarded-for': `${HOME}, ${ELSEWHERE}`,
      });
      expect(spoofed.json()).toEqual({ errors: ['identity.session.ip_not_allowed'] });
      // Straight to the app, not through the proxy: the header is ignored.
      const direct = await login(u.email, u.password, await code(u.email, u.secret), ELSEWHERE, viaProxy);
      expect(direct.json()).toEqual({ errors: ['identity.session.ip_not_allowed'] });
    } finally {
      t = previous;
      await proxied.close();
    }
  });
});
