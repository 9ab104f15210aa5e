import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, barongCall, nextIp, signedInUser } from '../support/identity.ts';

/**
 * The password check, observed: how many checks ran, and a gate that holds the check of one password (after
 * its hash was computed) until the test opens it, so "the account locked while the right password was being
 * checked" happens in that order every time, with no timing.
 */
const probe = vi.hoisted(() => ({
  checks: 0,
  gate: undefined as undefined | { password: string; reached: () => void; open: Promise<void> },
}));
vi.mock('../../src/modules/identity/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/modules/identity/passwords.ts')>();
  return {
    ...real,
    async verifyPassword(digest: string | undefined, password: string): Promise<boolean> {
      probe.checks++;
      const ok = await real.verifyPassword(digest, password);
      const gate = probe.gate;
      if (gate && password === gate.password) {
        gate.reached();
        await gate.open;
      }
      return ok;
    },
  };
});

/** Holds the check of `password` once it is reached; `reached` resolves then, `open()` lets it finish. */
function holdPassword(password: string) {
  let reached = () => {};
  let open = () => {};
  const reachedP = new Promise<void>((resolve) => {
    reached = resolve;
  });
  probe.gate = {
    password,
    reached,
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
  probe.checks = 0;
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
  it('checks no more passwords than the limit when 19 wrong ones and the right one arrive at once', async () => {
    const { email, password } = await activeUser(t, 'burst@example.com');
    probe.checks = 0;
    const passwords = [...Array.from({ length: 19 }, () => WRONG), password];
    const answers = await Promise.all(passwords.map((p) => login({ email, password: p })));
    const right = answers[19]?.json();
    // At most five attempts (the limit) had their password checked; every other one met the block.
    expect(probe.checks).toBeLessThanOrEqual(5);
    const unblocked = answers.filter((a) => JSON.stringify(a.json().errors) !== JSON.stringify(BLOCKED));
    expect(unblocked.length).toBeLessThanOrEqual(5);
    expect([BLOCKED, ['identity.session.missing_otp']]).toContainEqual(right.errors);
    // The account is locked now, whatever the order was (a 21st attempt would meet the per-account rate limit).
    const lock = await t.db.pool.query(
      `select f.locked_until > now() as locked from login_failures f join users u on f.identifier = 'user:' || u.id
       where u.email = $1`,
      [email],
    );
    expect(lock.rows[0]?.locked).toBe(true);
  });

  it('refuses the right password when the account locked while it was being checked', async () => {
    const { email, password } = await activeUser(t, 'between@example.com');
    const held = holdPassword(password);
    const right = login({ email, password });
    await held.reached;
    let last: string[] = [];
    for (let i = 0; i < 5 && JSON.stringify(last) !== JSON.stringify(BLOCKED); i++) {
      last = (await login({ email, password: WRONG })).json().errors;
    }
    expect(last).toEqual(BLOCKED);
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
    let last: string[] = [];
    for (let i = 0; i < 5 && JSON.stringify(last) !== JSON.stringify(BLOCKED); i++) {
      last = (await login({ email, password: WRONG })).json().errors;
    }
    expect(last).toEqual(BLOCKED);
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
