import { describe, expect, it } from 'vitest';
import { sessionFor } from '../support/core.ts';
import { enableTwoFactor } from '../support/identity.ts';
import { TRX, walletSuite } from '../support/wallet.ts';

/** The withdrawal hold after a change of two-factor, on the app's clock (beside wallet-withdrawals.test.ts). */
const w = walletSuite();
const { call, withdrawer } = w;

describe('the withdrawal hold after two-factor is turned on', () => {
  it("holds withdrawals for 24 hours on the app's clock after two-factor is turned on", async () => {
    const { who } = await withdrawer('otp-hold@wallet.test', 20n * TRX);
    await w.t.db.pool.query('update users set otp = false, otp_secret_enc = null where id = $1', [who.id]);
    // Two hours on, a fresh session turns two-factor on: the hold ends 24 hours after that, on the same clock.
    w.t.clock.advance(2 * 3_600_000);
    who.headers = await sessionFor(w.t.deps.sessions, who.id);
    const session = { cookie: who.headers.cookie ?? '', csrf: who.headers['x-csrf-token'] ?? '' };
    await enableTwoFactor(w.t, session, who.email);
    const held = (await call(who, 'GET', '/account/withdraw_permission')).json();
    expect(held.allowed).toBe(false);
    expect(Math.abs(Date.parse(held.hold_until) - (w.t.clock.now() + 24 * 3_600_000))).toBeLessThan(60_000);
  });
});
