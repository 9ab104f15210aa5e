import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_POLICY } from '../../src/modules/identity/password.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { barongCall, loginWithEmailCode, outbox, signedInUser } from '../support/identity.ts';

/** Password change and reset: sessions end, notices go out, wrong old passwords count like failed logins. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = barongCall(() => t);
const signedIn = (email: string) => signedInUser(t, email);

describe('passwords', () => {
  it('keeps a committed change when its notice cannot be queued, and says so in the log only', async () => {
    const { email, password, session } = await signedIn('noticeless@example.com');
    const mail = t.deps.mail;
    const send = mail.send;
    mail.send = async (message) => {
      if (message.template === 'security_notice') throw new Error('mail queue unavailable');
      return send(message);
    };
    try {
      const ok = await call('PUT', '/resource/users/password', session, {
        old_password: password,
        new_password: 'Quiet-Change#77',
        confirm_password: 'Quiet-Change#77',
      });
      expect(ok.statusCode, ok.body).toBe(201);
    } finally {
      mail.send = send;
    }
    await loginWithEmailCode(t, email, 'Quiet-Change#77');
  });

  it('changes the password, ends every session and mails a notice', async () => {
    const { email, password, session } = await signedIn('change@example.com');
    const other = await loginWithEmailCode(t, email, password);
    const wrong = await call('PUT', '/resource/users/password', session, {
      old_password: 'Not-the#One1',
      new_password: 'Brand-New#Pass2',
      confirm_password: 'Brand-New#Pass2',
    });
    // Barong 2.6.49's codes and statuses (issue 30).
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: ['resource.password.prev_pass_not_correct'] });
    const mismatch = await call('PUT', '/resource/users/password', session, {
      old_password: password,
      new_password: 'Brand-New#Pass2',
      confirm_password: 'Brand-New#Pass3',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({ errors: ['resource.password.doesnt_match'] });
    const same = await call('PUT', '/resource/users/password', session, {
      old_password: password,
      new_password: password,
      confirm_password: password,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ errors: ['resource.password.no_change_provided'] });
    const ok = await call('PUT', '/resource/users/password', session, {
      old_password: password,
      new_password: 'Brand-New#Pass2',
      confirm_password: 'Brand-New#Pass2',
    });
    expect(ok.statusCode).toBe(201);
    for (const s of [session, other])
      expect((await call('GET', '/resource/users/me', s)).statusCode).toBe(401);
    const notice = (
      await t.db.pool.query(`select subject from mail_outbox where recipient = $1 order by id desc limit 1`, [
        email,
      ])
    ).rows[0];
    expect(notice.subject).toBe('Security notice: Your password was changed');
    await loginWithEmailCode(t, email, 'Brand-New#Pass2');
  });

  it('counts wrong old passwords against the account and blocks it like failed logins', async () => {
    const { email, password, session } = await signedIn('guess@example.com');
    const change = (old_password: string) =>
      call('PUT', '/resource/users/password', session, {
        old_password,
        new_password: 'An0ther#Strong-Pass',
        confirm_password: 'An0ther#Strong-Pass',
      });
    for (let i = 0; i < 4; i++) {
      expect((await change(`Guess#${i}-Password`)).json().errors).toEqual([
        'resource.password.prev_pass_not_correct',
      ]);
    }
    const blocked = ['identity.session.account_blocked', 'identity.session.too_many_attempts'];
    expect((await change('Guess#5-Password')).json().errors).toEqual(blocked);
    // Blocked now: even the right old password does not change it, and the login is refused too.
    expect((await change(password)).json().errors).toEqual(blocked);
    const login = await call('POST', '/identity/sessions', undefined, { email, password });
    expect(login.json().errors).toEqual(blocked);
  });

  it('resets by an emailed link that works once, and tells nobody which emails exist', async () => {
    const { email, session } = await signedIn('reset@example.com');
    const unknown = await call('POST', '/identity/users/password/generate_code', undefined, {
      email: 'ghost@example.com',
    });
    const known = await call('POST', '/identity/users/password/generate_code', undefined, { email });
    expect(unknown.statusCode).toBe(201);
    expect(known.statusCode).toBe(201);
    expect(unknown.json()).toEqual(known.json());
    const [mail] = await outbox(t, email);
    const token = /\/password-reset\/([\w-]+)/.exec(mail?.body ?? '')?.[1] ?? '';
    expect(mail?.body).toContain('http://localhost:3000/password-reset/');
    const weak = await call('POST', '/identity/users/password/confirm_code', undefined, {
      reset_password_token: token,
      password: 'Password#1',
      confirm_password: 'Password#1',
    });
    expect(weak.json()).toEqual({ errors: ['password.weak'] });
    const reset = {
      reset_password_token: token,
      password: 'Fresh-Start#42',
      confirm_password: 'Fresh-Start#42',
    };
    // The weak attempt used the token up: links work once.
    expect((await call('POST', '/identity/users/password/confirm_code', undefined, reset)).json()).toEqual({
      errors: ['identity.user.invalid_reset_token'],
    });
    t.clock.advance(RESET_POLICY.resendSeconds * 1000 + 1000);
    await call('POST', '/identity/users/password/generate_code', undefined, { email });
    const [mail2] = await outbox(t, email);
    const token2 = /\/password-reset\/([\w-]+)/.exec(mail2?.body ?? '')?.[1] ?? '';
    const done = await call('POST', '/identity/users/password/confirm_code', undefined, {
      ...reset,
      reset_password_token: token2,
    });
    expect(done.statusCode).toBe(201);
    expect((await call('GET', '/resource/users/me', session)).statusCode).toBe(401);
    await loginWithEmailCode(t, email, 'Fresh-Start#42');
  });

  it('mails a new link at most once a minute, and a link lasts its hour, on the app clock', async () => {
    const { email } = await signedIn('reset-clock@example.com');
    const ask = () => call('POST', '/identity/users/password/generate_code', undefined, { email });
    /** The reset mails sent to the account so far (the outbox hands each link out once; the count stays). */
    const resets = async () => (await outbox(t, email, 20)).filter((m) => m.template === 'password_reset');
    const valid = (token: string) =>
      call('GET', `/identity/sessions/verify_access_token?access_token=${token}`, undefined);
    expect((await ask()).statusCode).toBe(201);
    expect(await resets()).toHaveLength(1);
    t.clock.advance((RESET_POLICY.resendSeconds - 2) * 1000);
    expect((await ask()).statusCode).toBe(201);
    expect(await resets()).toHaveLength(1);
    t.clock.advance(3000);
    expect((await ask()).statusCode).toBe(201);
    const mailed = await resets();
    expect(mailed).toHaveLength(2);
    const latest = /\/password-reset\/([\w-]+)/.exec(mailed[0]?.body ?? '')?.[1] ?? '';
    expect(latest).toMatch(/^[\w-]{20,}$/);
    // Ten seconds before its hour ends the link is good; ten seconds after, it is refused and sets nothing.
    t.clock.advance(RESET_POLICY.ttlMinutes * 60_000 - 10_000);
    expect((await valid(latest)).json()).toEqual({ valid: true });
    t.clock.advance(20_000);
    expect((await valid(latest)).json()).toEqual({ errors: ['identity.user.invalid_reset_token'] });
    const late = await call('POST', '/identity/users/password/confirm_code', undefined, {
      reset_password_token: latest,
      password: 'Fresh-Start#42',
      confirm_password: 'Fresh-Start#42',
    });
    expect(late.json()).toEqual({ errors: ['identity.user.invalid_reset_token'] });
  });
});
