import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_POLICY } from '../../src/modules/identity/lockout.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, barongCall, nextIp, signedInUser } from '../support/identity.ts';

/**
 * The password check, observed: the checks of each password, and a gate that holds the checks of one password
 * (after the hash was computed) until the test opens it, so that "the account locked while the right password
 * was being checked" happens in that order every time, with no timing.
 */
const probe = vi.hoisted(() => ({
  checks: new Map<string, number>(),
  gate: undefined as undefined | { password: string; arrived: () => void; open: Promise<void> },
}));
vi.mock('../../src/modules/identity/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/modules/identity/passwords.ts')>();
  return {
    ...real,
    async verifyPassword(digest: string | undefined, password: string): Promise<boolean> {
      probe.checks.set(password, (probe.checks.get(password) ?? 0) + 1);
      const ok = await real.verifyPassword(digest, password);
      const gate = probe.gate;
      if (gate && password === gate.password) {
        gate.arrived();
        await gate.open;
      }
      return ok;
    },
  };
});

/** Holds the checks of `password`; `reached` resolves once `count` of them are held, `open()` lets all finish. */
function holdPassword(password: string, count = 1) {
  let arrivals = 0;
  let reached = () => {};
  let open = () => {};
  const reachedP = new Promise<void>((resolve) => {
    reached = resolve;
  });
  probe.gate = {
    password,
    arrived: () => {
      if (++arrivals === count) reached();
    },
    open: new Promise<void>((resolve) => {
      open = resolve;
    }),
  };
  return {
    reached: reachedP,
    open: () => {
      open();
      probe.gate = undefined;
    },
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  probe.checks.clear();
  probe.gate = undefined;
});

const WRONG = 'Wrong#Password1';
const BLOCKED = ['identity.session.account_blocked', 'identity.session.too_many_attempts'];
const call = barongCall(() => t);
const login = (payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/sessions',
    payload,
    remoteAddress: nextIp(),
  });

describe('the lockout under concurrent attempts', () => {
  it('checks no more wrong passwords than the limit when 19 wrong ones and the right one arrive at once', async () => {
    const { email, password } = await activeUser(t, 'burst@example.com');
    probe.checks.clear();
    const passwords = [...Array.from({ length: 19 }, () => WRONG), password];
    const answers = await Promise.all(passwords.map((p) => login({ email, password: p })));
    // At most five guesses (the limit) had their password checked, as if they had come one after the other;
    // the others met the block, or (still being checked) were refused unchecked.
    const wrongChecks = probe.checks.get(WRONG) ?? 0;
    expect(wrongChecks).toBeLessThanOrEqual(5);
    const codes = answers.map((a) => a.json().errors.join(' '));
    expect(codes.filter((c) => c === 'identity.session.invalid_params').length).toBeLessThanOrEqual(4);
    for (const code of codes)
      expect([
        'identity.session.invalid_params',
        BLOCKED.join(' '),
        'server.rate_limited',
        'identity.session.missing_otp',
      ]).toContain(code);
    // Five failed checks always lock; fewer leave it open, as four wrong and the right one in a row would.
    const lock = await t.db.pool.query(
      `select f.locked_until > now() as locked from login_failures f join users u on f.identifier = 'user:' || u.id
       where u.email = $1`,
      [email],
    );
    expect(lock.rows[0]?.locked === true).toBe(wrongChecks === 5);
  });

  it('refuses attempts past the limit, unchecked, while earlier ones are still being checked; locks nothing', async () => {
    const { email, password } = await activeUser(t, 'parallel@example.com');
    const held = holdPassword(password, 5);
    const six = Array.from({ length: 6 }, () => login({ email, password }));
    await held.reached;
    // Five are being checked and cannot answer yet: the first answer is the sixth attempt's, refused unchecked.
    const first = await Promise.race(six);
    expect(first.statusCode).toBe(429);
    expect(first.json()).toEqual({ errors: ['server.rate_limited'] });
    held.open();
    const codes = (await Promise.all(six)).map((a) => a.json().errors.join(' '));
    expect(codes.filter((c) => c === 'identity.session.missing_otp')).toHaveLength(5);
    // Right passwords are no failures: nothing is locked and the next login goes on to its second step.
    expect((await login({ email, password })).json().errors).toEqual(['identity.session.missing_otp']);
    expect((await login({ email, password: WRONG })).json().left).toBe(4);
  });

  /** Wrong passwords until the account is blocked (at most five); the last answer's errors. */
  async function lockWithWrongPasswords(email: string): Promise<string[]> {
    let last: string[] = [];
    for (let i = 0; i < 5 && JSON.stringify(last) !== JSON.stringify(BLOCKED); i++)
      last = (await login({ email, password: WRONG })).json().errors;
    return last;
  }

  it('refuses the right password when the account locked while it was being checked', async () => {
    const { email, password } = await activeUser(t, 'between@example.com');
    const held = holdPassword(password);
    const right = login({ email, password });
    await held.reached;
    expect(await lockWithWrongPasswords(email)).toEqual(BLOCKED);
    held.open();
    const answer = await right;
    expect(answer.statusCode).toBe(401);
    expect(answer.json().errors).toEqual(BLOCKED);
  });

  it('refuses a password change whose right old password was being checked when the account locked', async () => {
    const { email, password, session } = await signedInUser(t, 'change-between@example.com');
    const held = holdPassword(password);
    const change = call('PUT', '/resource/users/password', session, {
      old_password: password,
      new_password: 'Another#Password2',
      confirm_password: 'Another#Password2',
    });
    await held.reached;
    expect(await lockWithWrongPasswords(email)).toEqual(BLOCKED);
    held.open();
    const answer = await change;
    expect(answer.json().errors).toEqual(BLOCKED);
    const digest = (await t.db.pool.query('select password_changed_at from users where email = $1', [email]))
      .rows[0];
    expect(digest.password_changed_at).toBeNull();
  });

  it('does not count a right password as a failure: the two-step login still has every attempt', async () => {
    const { email, password } = await activeUser(t, 'steps@example.com');
    for (let i = 0; i < 4; i++) await login({ email, password: WRONG });
    // Password step (missing_otp), code resend and identity step: each right, none counted.
    expect((await login({ email, password })).json().errors).toEqual(['identity.session.missing_otp']);
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/sessions/resent_otp',
      payload: { email, password },
      remoteAddress: nextIp(),
    });
    expect(resend.statusCode).toBe(201);
    expect((await login({ email, password })).json().errors).toEqual(['identity.session.missing_otp']);
    // The fifth wrong one still blocks.
    expect((await login({ email, password: WRONG })).json().errors).toEqual(BLOCKED);
  });
});

describe('the attempts left', () => {
  it('are counted per identifier, so they do not tell that a phone and an email are one account', async () => {
    const user = await activeUser(t, 'linked@example.com');
    const lefts: number[] = [];
    for (let i = 0; i < 3; i++) lefts.push((await login({ email: user.email, password: WRONG })).json().left);
    expect(lefts).toEqual([4, 3, 2]);
    const byPhone = await login({ session_type: 'phone', phone_number: user.phone, password: WRONG });
    const unknownPhone = await login({
      session_type: 'phone',
      phone_number: '819099998888',
      password: WRONG,
    });
    // The account's own phone answers as a phone of nobody's does.
    expect(byPhone.json()).toEqual(unknownPhone.json());
    expect(byPhone.json()).toEqual({ errors: ['identity.session.invalid_params'], left: 4 });
    // The lockout still counts the account: its fifth failure, by either identifier, blocks both.
    expect(
      (await login({ session_type: 'phone', phone_number: user.phone, password: WRONG })).json(),
    ).toEqual({
      errors: BLOCKED,
    });
    expect((await login({ email: user.email, password: user.password })).json().errors).toEqual(BLOCKED);
  });
});

describe('the block', () => {
  it('lasts its 15 minutes on the app clock, not a second less, then the right password goes through', async () => {
    const { email, password } = await activeUser(t, 'blocked-for@example.com');
    for (let i = 0; i < 4; i++) await login({ email, password: WRONG });
    expect((await login({ email, password: WRONG })).json().errors).toEqual(BLOCKED);
    t.clock.advance(LOGIN_POLICY.lockMinutes * 60_000 - 1_000);
    expect((await login({ email, password })).json().errors).toEqual(BLOCKED);
    t.clock.advance(2_000);
    expect((await login({ email, password })).json().errors).toEqual(['identity.session.missing_otp']);
    // A fresh count after the block: four more wrong ones leave it open.
    for (let i = 0; i < 4; i++) await login({ email, password: WRONG });
    expect((await login({ email, password })).json().errors).toEqual(['identity.session.missing_otp']);
  });
});
