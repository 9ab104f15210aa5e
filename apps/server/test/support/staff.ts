import { TOTP } from 'otpauth';
import { expect, vi } from 'vitest';
import { isStaffRole } from '../../src/modules/admin/access.ts';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { newTotpSecret } from '../../src/modules/identity/totp.ts';
import type { TestApp } from './app.ts';
import { plainUser, sessionFor } from './core.ts';

type Headers = Record<string, string>;

/** A user with a role, two-factor on (known secret) and a browser session, for the admin API's tests. */
export interface Person {
  id: number;
  uid: string;
  email: string;
  headers: Headers;
  secret: string;
}

/** Creates a user with `role` (`member` for a customer) and, unless `otp` is false, two-factor on. */
export async function person(t: TestApp, email: string, role: string, otp = true): Promise<Person> {
  const id = await plainUser(t.db.pool, email);
  return asStaff(t, id, role, otp);
}

/** Gives an existing user `role`, a known authenticator secret and a session. */
export async function asStaff(t: TestApp, id: number, role: string, otp = true): Promise<Person> {
  const secret = newTotpSecret();
  const row = (
    await t.db.pool.query(
      'update users set role = $2, otp = $3, otp_secret_enc = $4 where id = $1 returning uid, email',
      [id, role, otp, encrypt(t.deps.keys, secret)],
    )
  ).rows[0];
  const headers = await sessionFor(t.deps.sessions, id);
  // The app hears of the change through the database's change feed, within a second (later on a loaded
  // machine): wait until its console sees the new role, so that no test starts on the account's cached old one.
  if (isStaffRole(role))
    await vi.waitFor(
      async () => {
        const me = await adminCall(t, 'GET', '/me', headers);
        if (otp) expect(me.json(), me.body).toMatchObject({ role });
        else expect(me.json()).toEqual({ errors: ['admin.2fa_required'] });
      },
      { timeout: 10_000, interval: 50 },
    );
  return { id, uid: row.uid, email: row.email, headers, secret };
}

/** The authenticator code of `p` at now + `offset` milliseconds. */
export const totpCode = (p: { secret: string }, offset = 0) =>
  new TOTP({ secret: p.secret, period: 30, digits: 6 }).generate({ timestamp: Date.now() + offset });

/** A request to the admin API (`/api/v2/admin` + `url`). */
export const adminCall = (
  t: TestApp,
  method: string,
  url: string,
  headers: Headers = {},
  payload?: unknown,
) =>
  t.app.inject({
    method: method as 'GET',
    url: `/api/v2/admin${url}`,
    headers,
    ...(payload ? { payload: payload as object } : {}),
  });

/**
 * Steps up, unless the session's step-up still has more than a minute to run; when this 30-second step's code
 * was already used, with the next step's (accepted one early).
 */
export async function stepUp(t: TestApp, p: Person): Promise<void> {
  const until = (await adminCall(t, 'GET', '/me', p.headers)).json().step_up_until as string | null;
  // On the app's clock, which a test may have moved: its window and its authenticator step.
  if (until && new Date(until).getTime() > t.clock.now() + 60_000) return;
  let res = await adminCall(t, 'POST', '/step_up', p.headers, { otp_code: totpCode(p, t.clock.offset) });
  if (res.statusCode === 422)
    res = await adminCall(t, 'POST', '/step_up', p.headers, {
      otp_code: totpCode(p, t.clock.offset + 30_000),
    });
  expect(res.statusCode, res.body).toBe(200);
}
