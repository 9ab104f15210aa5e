import { TOTP } from 'otpauth';
import { expect } from 'vitest';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { newTotpSecret } from '../../src/modules/identity/totp.ts';
import type { TestApp } from './app.ts';
import { plainUser, sessionFor } from './core.ts';

export type Headers = Record<string, string>;

/** A user with a role, two-factor on (known secret) and a browser session. */
export interface Person {
  id: number;
  uid: string;
  headers: Headers;
  secret: string;
}

/** Staff helpers over a test app: people with roles, admin API calls, step-up. */
export function staffHarness(app: () => TestApp) {
  const person = async (email: string, role: string, otp = true): Promise<Person> => {
    const t = app();
    const id = await plainUser(t.db.pool, email);
    const secret = newTotpSecret();
    await t.db.pool.query('update users set role = $2, otp = $3, otp_secret_enc = $4 where id = $1', [
      id,
      role,
      otp,
      encrypt(t.deps.keys, secret),
    ]);
    const uid = (await t.db.pool.query('select uid from users where id = $1', [id])).rows[0].uid as string;
    return { id, uid, headers: await sessionFor(t.deps.sessions, id), secret };
  };
  const code = (p: Person, offset = 0) =>
    new TOTP({ secret: p.secret, period: 30, digits: 6 }).generate({ timestamp: Date.now() + offset });
  const call = (method: string, url: string, headers: Headers = {}, payload?: unknown) =>
    app().app.inject({
      method: method as 'GET',
      url: `/api/v2/admin${url}`,
      headers,
      ...(payload ? { payload: payload as object } : {}),
    });
  /** Steps up; when this 30-second step's code was already used, with the next step's (accepted one early). */
  const stepUp = async (p: Person) => {
    let res = await call('POST', '/step_up', p.headers, { otp_code: code(p) });
    if (res.statusCode === 422)
      res = await call('POST', '/step_up', p.headers, { otp_code: code(p, 30_000) });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { person, code, call, stepUp };
}

/**
 * The markets and ledger routes for admin.test.ts's list of every admin route: the roles allowed and a request
 * that passes validation.
 */
export const MARKET_AND_LEDGER_ROUTES = [
  { method: 'GET', url: '/markets', allowed: ['technical'] },
  {
    method: 'POST',
    url: '/markets',
    allowed: ['technical'],
    body: {
      id: 'ethtrx',
      base_unit: 'eth',
      quote_unit: 'trx',
      amount_precision: 2,
      price_precision: 2,
      min_price: '0.01',
      min_amount: '0.01',
      maker_fee: '0.001',
      taker_fee: '0.002',
    },
  },
  {
    method: 'POST',
    url: '/markets/btcusdt',
    allowed: ['technical'],
    body: { state: 'enabled' },
    path: '/markets/{id}',
  },
  { method: 'GET', url: '/networks', allowed: ['technical'] },
  {
    method: 'POST',
    url: '/networks/trx/tron-sim',
    allowed: ['technical'],
    body: { withdraw_enabled: true },
    path: '/networks/{currency}/{blockchain_key}',
  },
  { method: 'GET', url: '/ledger', allowed: ['accountant'] },
  { method: 'GET', url: '/ledger.csv', allowed: ['accountant'] },
];
