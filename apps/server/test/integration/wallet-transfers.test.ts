import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * Transfers to another user by email, phone number or address, confirmed with the account password (FAQ; issue
 * 32 item 1): an internal transfer with no fee, and every refusal with its code and nothing moved.
 */
const w = walletSuite();
const PASSWORD = 'Transfer-pass1';
let base: string;

beforeAll(async () => {
  base = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
});

/** A member (level 3 and 2FA unless said) whose password is {@link PASSWORD}. */
async function person(email: string, level = 3): Promise<Member> {
  const who = await w.member(email, level);
  await w.t.db.pool.query('update users set password_digest = $2 where id = $1', [
    who.id,
    await hashPassword(PASSWORD),
  ]);
  return who;
}

const transfer = (who: Member, body: Record<string, unknown>) =>
  w.call(who, 'POST', '/account/internal_transfers', { currency: 'trx', password: PASSWORD, ...body });
const trx = (who: Member) => w.balance(who, 'trx');

describe('transfers to another user', () => {
  it('by email (any case): at once, no fee, on both histories', async () => {
    const sender = await person('pay-email@transfer.test');
    const friend = await person('Friend.Email@transfer.test');
    await w.credit(sender, 'trx', 50n * TRX);
    const res = await transfer(sender, { recipient: ' FRIEND.email@Transfer.test ', amount: '12.5' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      currency: 'trx',
      amount: '12.5',
      fee: '0',
      state: 'succeed',
      transaction_type: 'internal',
      rid: 'friend.email@transfer.test',
    });
    expect(trx(sender)).toEqual({ balance: 37_500_000n, locked: 0n });
    expect(trx(friend)).toEqual({ balance: 12_500_000n, locked: 0n });
    const [deposit] = await w.deposits(friend);
    expect(deposit).toMatchObject({ amount: '12.5', state: 'collected', transaction_type: 'internal' });
    // Nothing about the recipient comes back but what the sender typed.
    const { uid } = (await w.t.db.pool.query('select uid from users where id = $1', [friend.id])).rows[0];
    expect(JSON.stringify(res.json())).not.toContain(uid);
  });

  it('by confirmed phone number, however it is spelt, and by deposit address', async () => {
    const sender = await person('pay-phone@transfer.test');
    const friend = await person('friend-phone@transfer.test');
    await w.t.db.pool.query(
      `insert into phones (user_id, country, number, validated_at) values ($1, 'AT', '436641234567', now())`,
      [friend.id],
    );
    await w.credit(sender, 'trx', 50n * TRX);
    const byPhone = await transfer(sender, { recipient: '+43 664-123-4567', amount: '10' });
    expect(byPhone.statusCode, byPhone.body).toBe(201);
    expect(byPhone.json()).toMatchObject({ rid: '+436641234567', state: 'succeed', fee: '0' });
    const address = await w.depositAddress(friend);
    const byAddress = await transfer(sender, { recipient: address, amount: '11' });
    expect(byAddress.statusCode, byAddress.body).toBe(201);
    expect(byAddress.json()).toMatchObject({ rid: address, blockchain_key: 'tron-sim', state: 'succeed' });
    expect(trx(friend).balance).toBe(21n * TRX);
    expect(trx(sender).balance).toBe(29n * TRX);
    // A phone number that is not confirmed names nobody.
    await w.t.db.pool.query(
      `insert into phones (user_id, country, number, validated_at) values ($1, 'AT', '436649999999', null)`,
      [friend.id],
    );
    const unconfirmed = await transfer(sender, { recipient: '+436649999999', amount: '10' });
    expect(unconfirmed.json().errors).toEqual(['account.internal_transfer.recipient_not_found']);
  });

  it('keeps the records under the chosen network, whose minimum applies', async () => {
    const sender = await person('pay-network@transfer.test');
    const friend = await person('friend-network@transfer.test');
    await w.credit(sender, 'usdt', 100n * 1_000_000n);
    const usdt = (blockchain_key: string, amount: string) =>
      transfer(sender, { currency: 'usdt', blockchain_key, recipient: friend.email, amount });
    // USDT: at least 10 on eth-devnet, 5 on tron-sim (the seed's minimum withdrawals).
    const small = await usdt('eth-devnet', '7');
    expect([small.statusCode, small.json().errors]).toEqual([422, ['account.withdraw.amount_too_small']]);
    const tron = await usdt('tron-sim', '7');
    expect(tron.statusCode, tron.body).toBe(201);
    expect(tron.json()).toMatchObject({ currency: 'usdt', blockchain_key: 'tron-sim', amount: '7' });
    const unknown = await usdt('btc-sim', '7');
    expect(unknown.json().errors).toEqual(['account.blockchain.doesnt_exist']);
    expect(w.balance(friend, 'usdt').balance).toBe(7_000_000n);
  });

  it('refuses each bad request with its code and moves nothing', async () => {
    const sender = await person('pay-refused@transfer.test');
    const friend = await person('friend-refused@transfer.test');
    const locked = await person('locked@transfer.test');
    await w.t.db.pool.query(`update users set state = 'locked' where id = $1`, [locked.id]);
    await w.credit(sender, 'trx', 20n * TRX);
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { recipient: 'nobody@transfer.test', amount: '10' },
        422,
        'account.internal_transfer.recipient_not_found',
      ],
      // An inactive account answers as if there were none.
      [{ recipient: locked.email, amount: '10' }, 422, 'account.internal_transfer.recipient_not_found'],
      [
        { recipient: 'T'.padEnd(34, '1'), amount: '10' },
        422,
        'account.internal_transfer.recipient_not_found',
      ],
      [{ recipient: sender.email, amount: '10' }, 422, 'account.internal_transfer.self_transfer'],
      [{ recipient: friend.email, amount: '9.99' }, 422, 'account.withdraw.amount_too_small'],
      [{ recipient: friend.email, amount: '20.000001' }, 422, 'account.withdraw.insufficient_balance'],
      [{ recipient: friend.email, amount: '1.0000001' }, 422, 'account.withdraw.invalid_amount'],
      [{ recipient: '', amount: '10' }, 422, 'account.internal_transfer.missing_recipient'],
      [{ recipient: friend.email, amount: '' }, 422, 'account.withdraw.missing_amount'],
      [
        { recipient: friend.email, amount: '10', password: '' },
        422,
        'account.internal_transfer.missing_password',
      ],
      [{ recipient: friend.email, amount: '10', currency: 'nope' }, 422, 'account.currency.doesnt_exist'],
    ];
    for (const [body, status, code] of cases) {
      const res = await transfer(sender, body);
      expect([res.statusCode, res.json().errors], JSON.stringify(body)).toEqual([status, [code]]);
    }
    const small = await transfer(sender, { recipient: friend.email, amount: '9.99' });
    expect(small.json()).toMatchObject({ errors: ['account.withdraw.amount_too_small'] });
    expect(trx(sender)).toEqual({ balance: 20n * TRX, locked: 0n });
    expect(trx(friend).balance).toBe(0n);
    expect((await w.call(sender, 'GET', '/account/withdraws')).json()).toEqual([]);
  });

  it('checks the password before the recipient, and blocks the account after five wrong ones', async () => {
    const sender = await person('pay-password@transfer.test');
    const friend = await person('friend-password@transfer.test');
    await w.credit(sender, 'trx', 20n * TRX);
    // A wrong password says nothing about whether the recipient exists: both answers are the same.
    const unknown = await transfer(sender, { recipient: 'nobody@x.test', amount: '10', password: 'wrong-1' });
    const known = await transfer(sender, { recipient: friend.email, amount: '10', password: 'wrong-2' });
    for (const res of [unknown, known]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(['account.internal_transfer.invalid_password']);
    }
    for (let i = 3; i <= 4; i++) {
      const res = await transfer(sender, { recipient: friend.email, amount: '10', password: `wrong-${i}` });
      expect(res.json().errors).toEqual(['account.internal_transfer.invalid_password']);
    }
    const fifth = await transfer(sender, { recipient: friend.email, amount: '10', password: 'wrong-5' });
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().errors).toContain('identity.session.account_blocked');
    // Blocked: even the right password is refused now.
    const right = await transfer(sender, { recipient: friend.email, amount: '10' });
    expect(right.statusCode).toBe(401);
    expect(trx(sender)).toEqual({ balance: 20n * TRX, locked: 0n });
    expect(trx(friend).balance).toBe(0n);
  });

  it('needs what a withdrawal needs: level 3 and 2FA', async () => {
    const unverified = await person('pay-level2@transfer.test', 2);
    const friend = await person('friend-level@transfer.test');
    await w.credit(unverified, 'trx', 20n * TRX);
    const res = await transfer(unverified, { recipient: friend.email, amount: '10' });
    expect([res.statusCode, res.json().errors]).toEqual([403, ['account.withdraw.not_permitted']]);
    const noOtp = await person('pay-nootp@transfer.test');
    await w.t.db.pool.query('update users set otp = false where id = $1', [noOtp.id]);
    await w.credit(noOtp, 'trx', 20n * TRX);
    const refused = await transfer(noOtp, { recipient: friend.email, amount: '10' });
    expect([refused.statusCode, refused.json().errors]).toEqual([403, ['account.withdraw.not_permitted']]);
    expect(trx(friend).balance).toBe(0n);
  });

  it("over HTTP: no cookie, no CSRF token, or another user's session cannot move anyone's money", async () => {
    const victim = await person('victim@transfer.test');
    const attacker = await person('attacker@transfer.test');
    await w.credit(victim, 'trx', 20n * TRX);
    const post = (headers: Record<string, string>, body: Record<string, unknown>) =>
      fetch(`${base}/api/v2/peatio/account/internal_transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ currency: 'trx', amount: '10', password: PASSWORD, ...body }),
      });
    const noCookie = await post({}, { recipient: attacker.email });
    expect(noCookie.status).toBe(401);
    const noCsrf = await post({ cookie: victim.headers.cookie ?? '' }, { recipient: attacker.email });
    expect(noCsrf.status).toBe(401);
    expect(((await noCsrf.json()) as { errors: string[] }).errors).toEqual(['authz.missing_csrf_token']);
    // The attacker's own session, naming the victim in every way a body could: the transfer is always the
    // session user's, and the attacker has nothing (and the victim's password is not the attacker's to use).
    const asAttacker = await post(attacker.headers, {
      recipient: attacker.email,
      user_id: victim.id,
      uid: victim.id,
      email: victim.email,
    });
    expect(asAttacker.status).toBe(422);
    expect(((await asAttacker.json()) as { errors: string[] }).errors).toEqual([
      'account.internal_transfer.self_transfer',
    ]);
    const toAttacker = await post(attacker.headers, { recipient: victim.email, user_id: victim.id });
    expect(((await toAttacker.json()) as { errors: string[] }).errors).toEqual([
      'account.withdraw.insufficient_balance',
    ]);
    expect(trx(victim)).toEqual({ balance: 20n * TRX, locked: 0n });
    expect(trx(attacker)).toEqual({ balance: 0n, locked: 0n });
  });
});
