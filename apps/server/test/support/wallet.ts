import { encrypt } from '../../src/modules/identity/crypto.ts';
import { newTotpSecret } from '../../src/modules/identity/totp.ts';
import type { TestApp } from './app.ts';
import { plainUser, sessionFor } from './core.ts';
import { forgetUsedTotp, oathtoolCode } from './identity.ts';

/** A signed-in user with two-factor on, for wallet tests. */
export interface Member {
  id: number;
  email: string;
  headers: Record<string, string>;
  /** Base32 TOTP secret. */
  secret: string;
}

/** Creates a signed-in user at `level` with two-factor on. */
export async function member(t: TestApp, email: string, level = 3): Promise<Member> {
  const id = await plainUser(t.db.pool, email);
  const secret = newTotpSecret();
  await t.db.pool.query('update users set level = $2, otp = true, otp_secret_enc = $3 where id = $1', [
    id,
    level,
    encrypt(t.deps.keys, secret),
  ]);
  return { id, email, secret, headers: await sessionFor(t.deps.sessions, id) };
}

/** A request to the Peatio API as `who`. */
export function peatio(
  t: TestApp,
  who: Member,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url: `/api/v2/peatio${url}`,
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** A fresh authenticator code for `who` (the replay guard is reset, as if time had moved on). */
export async function freshTotp(t: TestApp, who: Member): Promise<string> {
  await forgetUsedTotp(t, who.email);
  return oathtoolCode(who.secret);
}
