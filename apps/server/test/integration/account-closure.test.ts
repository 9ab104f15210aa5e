import { describe, expect, it } from 'vitest';
import { closureService } from '../../src/modules/account-closure/job.ts';
import { closureQueue } from '../../src/modules/account-closure/queue.ts';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { sessionFor } from '../support/core.ts';
import { nextIp } from '../support/identity.ts';
import { adminCall, person, stepUp } from '../support/staff.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * Account closure (issue 31, part 4): refusals with a raw client, the withdrawal of each balance through the usual
 * machinery, the account closed once nothing is left (no login, sessions and keys ended, retention dates), cancel,
 * and the operator's queue. The suite audits the ledger after the file (walletSuite).
 */
const w = walletSuite();
const PASSWORD = 'Closure-pass-2026!';
const URL = '/api/v2/barong/resource/users/closure';

/** A level-3 member with two-factor, a password we know, and `trx` units of TRX. */
async function closer(email: string, trx = 0n): Promise<Member> {
  const who = await w.member(email);
  await w.t.db.pool.query('update users set password_digest = $2 where id = $1', [
    who.id,
    await hashPassword(PASSWORD),
  ]);
  if (trx > 0n) await w.credit(who, 'trx', trx);
  return who;
}

const closure = (
  who: { headers: Record<string, string> } | null,
  method: 'GET' | 'POST' | 'DELETE',
  payload?: Record<string, unknown>,
) =>
  w.t.app.inject({
    method,
    url: URL,
    // Each call from its own address: the route's per-address limit is not what these tests are about.
    remoteAddress: nextIp(),
    headers: who?.headers ?? {},
    ...(payload ? { payload } : {}),
  });

const ask = async (who: Member, addresses: { currency: string; beneficiary_id: number }[] = [], extra = {}) =>
  closure(who, 'POST', { password: PASSWORD, otp_code: await w.totp(who), addresses, ...extra });

const service = () => closureService(w.t.deps);

const logged = async (who: Member) =>
  (
    await w.t.db.pool.query(
      `select action from activities where user_id = $1 and topic = 'account_closure' order by id`,
      [who.id],
    )
  ).rows.map((r) => r.action as string);

describe('account closure', () => {
  it('refuses a raw client without a session or without the CSRF token', async () => {
    expect((await closure(null, 'GET')).statusCode).toBe(401);
    const none = await closure(null, 'POST', { password: PASSWORD });
    expect(none.statusCode).toBe(401);
    expect(none.json().errors).toEqual(['authz.invalid_session']);
    const who = await closer('nocsrf@closure.test', 20n * TRX);
    const { 'x-csrf-token': _csrf, ...cookieOnly } = who.headers;
    const noCsrf = await w.t.app.inject({
      method: 'POST',
      url: URL,
      headers: cookieOnly,
      payload: { password: PASSWORD, otp_code: await w.totp(who) },
    });
    expect(noCsrf.statusCode).toBe(401);
    expect(noCsrf.json().errors).toEqual(['authz.missing_csrf_token']);
    expect((await closure(who, 'GET')).json().state).toBe('none');
  });

  it('refuses a wrong password, a missing or wrong authenticator code, and open orders; nothing is recorded', async () => {
    const who = await closer('refused@closure.test', 30n * TRX);
    const wrong = await closure(who, 'POST', { password: 'Wrong-pass-2026!', otp_code: await w.totp(who) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual(['resource.closure.invalid_password']);
    const missing = await closure(who, 'POST', { password: PASSWORD });
    expect(missing.json().errors).toEqual(['resource.closure.missing_otp']);
    const badCode = await closure(who, 'POST', { password: PASSWORD, otp_code: '000000' });
    expect(badCode.statusCode).toBe(422);
    // (000000 is the right code one time in a million.)
    expect(badCode.json().errors).toEqual(['resource.closure.invalid_otp']);

    const order = await w.call(who, 'POST', '/market/orders', {
      market: 'trxusdt',
      side: 'sell',
      volume: '10',
      ord_type: 'limit',
      price: '999',
    });
    expect(order.statusCode).toBe(201);
    const blocked = await ask(who);
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().errors).toEqual(['resource.closure.open_orders']);
    expect((await closure(who, 'GET')).json()).toMatchObject({ state: 'none', open_orders: 1 });
    expect(await logged(who)).toEqual([]);
    await w.call(who, 'POST', `/market/orders/${order.json().id}/cancel`);
  });

  it("refuses another user's beneficiary, a pending one and one of another currency alike (IDOR)", async () => {
    const who = await closer('idor@closure.test', 30n * TRX);
    const other = await closer('victim@closure.test');
    const theirs = await w.activeBeneficiary(other, externalAddress('tron'));
    const pending = await w.call(who, 'POST', '/account/beneficiaries', {
      name: 'not yet',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: externalAddress('tron') },
    });
    expect(pending.statusCode).toBe(201);
    for (const id of [theirs, pending.json().id as number, 999_999_999]) {
      const res = await ask(who, [{ currency: 'trx', beneficiary_id: id }]);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(['resource.closure.invalid_beneficiary']);
    }
    const ownTrx = await w.activeBeneficiary(who, externalAddress('tron'));
    const wrongCurrency = await ask(who, [{ currency: 'usdt', beneficiary_id: ownTrx }]);
    expect(wrongCurrency.json().errors).toEqual(['resource.closure.invalid_beneficiary']);
    // Nothing moved, nothing was recorded.
    expect(w.balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
    expect((await closure(who, 'GET')).json().state).toBe('none');
    expect(await logged(who)).toEqual([]);
  });

  it('withdraws the balance through the usual machinery, then closes: no login, sessions and keys ended, dates kept', async () => {
    const network = w.t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    const { hotWallet } = await import('../../src/modules/wallet/addresses.ts');
    await w.tron.faucet((await hotWallet(w.t.db.pool, network)).address, 'trx', 1000n * TRX);
    await w.mine(1);

    const who = await closer('leaving@closure.test', 50n * TRX);
    const kid = `closure${who.id}`;
    await w.t.db.pool.query(`insert into api_keys (user_id, kid, secret_enc) values ($1, $2, 'x')`, [
      who.id,
      kid,
    ]);
    const target = externalAddress('tron');
    const beneficiary = await w.activeBeneficiary(who, target);
    const res = await ask(who, [{ currency: 'trx', beneficiary_id: beneficiary }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'open', cancelable: false });
    const [item] = res.json().balances;
    expect(item).toMatchObject({
      currency: 'trx',
      balance: '0',
      locked: '50',
      withdrawal: { state: 'accepted', amount: '50', fee: '1', rid: target },
    });
    // Under way: not cancelable, not closed yet.
    const cancel = await closure(who, 'DELETE');
    expect(cancel.statusCode).toBe(422);
    expect(cancel.json().errors).toEqual(['resource.closure.not_cancelable']);
    expect(await service().sweep()).toBe(0);

    await w.t.deps.wallet.tick();
    await w.mine(30);
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });
    expect(await w.tronChain.balance(target, 'trx')).toBe(49n * TRX);
    expect(await service().sweep()).toBe(1);

    const row = (
      await w.t.db.pool.query(
        `select c.state, u.state as user_state,
                c.records_erase_at = c.closed_at + interval '8 years' as eight,
                c.correspondence_erase_at = c.closed_at + interval '5 years' as five,
                (select state from api_keys where kid = $2) as key_state,
                (select count(*)::int from sessions where user_id = $1 and revoked_at is null) as live
           from account_closures c join users u on u.id = c.user_id where c.user_id = $1`,
        [who.id, kid],
      )
    ).rows[0];
    expect(row).toEqual({
      state: 'closed',
      user_state: 'deleted',
      eight: true,
      five: true,
      key_state: 'inactive',
      live: 0,
    });
    expect(await logged(who)).toEqual(['closure.request', 'closure.complete']);
    // The old session is over.
    expect((await closure(who, 'GET')).statusCode).toBe(401);
    // Login: the right password is told only that the account is not active; a wrong one learns nothing.
    const login = (password: string) =>
      w.t.app.inject({
        method: 'POST',
        url: '/api/v2/barong/identity/sessions',
        remoteAddress: nextIp(),
        payload: { email: who.email, password, session_type: 'email', otp_code: '123456' },
      });
    const right = await login(PASSWORD);
    expect(right.statusCode).toBe(401);
    expect(right.json().errors).toEqual(['authz.user_not_active']);
    const wrongPassword = await login('Wrong-pass-2026!');
    expect(wrongPassword.json().errors).toEqual(['identity.session.invalid_params']);
    // Staff cannot open it again by unlocking it.
    const staffer = await person(w.t, 'unlocker@closure.test', 'support');
    await stepUp(w.t, staffer);
    const uid = (await w.t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0].uid;
    const unlock = await adminCall(w.t, 'POST', `/users/${uid}/unlock`, staffer.headers, {
      reason: 'asked to come back',
    });
    expect(unlock.statusCode, unlock.body).toBe(422);
    expect(unlock.json().errors).toEqual(['admin.user.closed']);
    const after = await w.t.db.pool.query('select state from users where id = $1', [who.id]);
    expect(after.rows[0].state).toBe('deleted');
  });

  it('closes at once when the balance goes to another user of the exchange (an internal transfer)', async () => {
    const who = await closer('internal@closure.test', 25n * TRX);
    const friend = await closer('friend@closure.test');
    const beneficiary = await w.activeBeneficiary(who, await w.depositAddress(friend));
    const res = await ask(who, [{ currency: 'trx', beneficiary_id: beneficiary }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'closed', balances: [] });
    expect(w.balance(friend, 'trx').balance).toBe(25n * TRX);
    const state = await w.t.db.pool.query('select state from users where id = $1', [who.id]);
    expect(state.rows[0].state).toBe('deleted');
    expect((await closure(who, 'GET')).statusCode).toBe(401);
  });

  it('cancels while nothing was withdrawn; lists a balance without an address for conversion after 30 days', async () => {
    const who = await closer('stays@closure.test', 40n * TRX);
    // Asked half an hour on, on the app's clock: the 30 days run from the app's now, not the database's.
    w.t.clock.advance(30 * 60_000);
    const asked = await ask(who);
    expect(asked.statusCode).toBe(201);
    const dueAt = Date.parse(asked.json().conversion_due_at);
    expect(Math.abs(dueAt - (w.t.clock.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    expect(asked.json()).toMatchObject({
      state: 'open',
      cancelable: true,
      balances: [{ currency: 'trx', balance: '40', locked: '0', withdrawal: null }],
    });
    // Asking again with the closure under way changes nothing (it names no address).
    expect((await ask(who)).statusCode).toBe(201);
    const open = await closureQueue(w.t.db.pool, w.t.deps.core, 'open', w.t.clock.now());
    expect(open.find((c) => c.email === who.email)).toMatchObject({ state: 'open', for_conversion: false });
    // A second before the date it is not listed for conversion; a second after it, it is.
    const early = await closureQueue(w.t.db.pool, w.t.deps.core, 'for_conversion', dueAt - 1_000);
    expect(early.find((c) => c.email === who.email)).toBeUndefined();
    const due = await closureQueue(w.t.db.pool, w.t.deps.core, 'for_conversion', dueAt + 1_000);
    expect(due.find((c) => c.email === who.email)).toMatchObject({
      for_conversion: true,
      balances: [{ currency: 'trx', balance: '40', locked: '0' }],
    });
    // The console reads the date on the app's clock, moved past it (the customer's session, past its 24 hours,
    // is renewed).
    w.t.clock.set(dueAt + 1_000);
    who.headers = await sessionFor(w.t.deps.sessions, who.id);
    // Through the console's API: staff with users.read see it; a customer (the closing user) is refused.
    const support = await person(w.t, 'support@closure.test', 'support');
    await stepUp(w.t, support);
    const listed = await adminCall(w.t, 'GET', '/closures?state=for_conversion', support.headers);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((c: { email: string }) => c.email)).toContain(who.email);
    const customer = await adminCall(w.t, 'GET', '/closures', who.headers);
    expect(customer.statusCode).toBe(403);

    const cancel = await closure(who, 'DELETE');
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().state).toBe('none');
    expect(await logged(who)).toEqual(['closure.request', 'closure.cancel']);
    expect((await closure(who, 'DELETE')).json().errors).toEqual(['resource.closure.doesnt_exist']);
    expect(w.balance(who, 'trx')).toEqual({ balance: 40n * TRX, locked: 0n });
  });
  it('a withdrawal that came back (cancelled, funds released) makes the closure cancelable again and takes a new address', async () => {
    const who = await closer('retry@closure.test', 20n * TRX);
    const first = await w.activeBeneficiary(who, externalAddress('tron'));
    const asked = await ask(who, [{ currency: 'trx', beneficiary_id: first }]);
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().balances[0].withdrawal.id as number;
    // The withdrawal never leaves: cancelled, its hold released through the core (as the processor does).
    const { releaseHold, setState } = await import('../../src/modules/wallet/withdrawals.ts');
    expect(await setState(w.t.db.pool, id, 'canceled')).toBe(true);
    await releaseHold({ core: w.t.deps.core, db: w.t.db.pool }, id);
    const back = (await closure(who, 'GET')).json();
    expect(back).toMatchObject({
      state: 'open',
      cancelable: true,
      balances: [{ currency: 'trx', balance: '20', locked: '0', withdrawal: { id, state: 'canceled' } }],
    });
    // Another address: a new withdrawal of the whole balance, and the closure is no longer cancelable.
    const second = await w.activeBeneficiary(who, externalAddress('tron'));
    const again = await ask(who, [{ currency: 'trx', beneficiary_id: second }]);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({
      cancelable: false,
      balances: [
        { currency: 'trx', balance: '0', locked: '20', withdrawal: { state: 'accepted', amount: '20' } },
      ],
    });
    expect((await closure(who, 'DELETE')).json().errors).toEqual(['resource.closure.not_cancelable']);
    // Naming it twice sends nothing twice.
    const twice = await ask(who, [{ currency: 'trx', beneficiary_id: second }]);
    expect(twice.json().errors).toEqual(['resource.closure.nothing_to_withdraw']);
  });
});
