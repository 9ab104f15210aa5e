import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimChain } from '../../src/adapters/chains/sim/chain.ts';
import { auditLedger } from '../../src/core/audit.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { oathtoolCode } from '../support/identity.ts';
import { freshTotp, type Member, member, peatio } from '../support/wallet.ts';

let t: TestApp;
let tron: SimChain;

const call = (who: Member, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  peatio(t, who, method, url, payload);
const balance = (who: Member, currency: string) => t.deps.core.sequencer.state.balance(who.id, currency);
const totp = (who: Member) => freshTotp(t, who);
const depositAddress = async (who: Member, currency = 'trx', network = 'tron-sim') =>
  (await call(who, 'GET', `/account/deposit_address/${currency}?blockchain_key=${network}`)).json()
    .address as string;
const mine = async (blocks: number) => {
  await tron.mine(blocks);
  await t.deps.wallet.tick();
};
const deposits = async (who: Member, query = '') =>
  (await call(who, 'GET', `/account/deposits${query}`)).json();
const TRX = 1_000_000n;

beforeAll(async () => {
  t = await createTestApp();
  const network = t.deps.wallet.chains.get('tron-sim');
  if (!network?.sim) throw new Error('tron-sim is not simulated');
  tron = network.sim;
});
afterAll(async () => {
  expect(await auditLedger(t.db.pool)).toEqual([]);
  await t.close();
});

describe('deposit addresses', () => {
  it('gives one address per user and network, shared by the currencies on it', async () => {
    const ann = await member(t, 'ann@wallet.test');
    const trx = await depositAddress(ann);
    expect(trx).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await depositAddress(ann)).toBe(trx);
    expect(await depositAddress(ann, 'usdt', 'tron-sim')).toBe(trx);
    const bob = await member(t, 'bob@wallet.test');
    expect(await depositAddress(bob)).not.toBe(trx);
  });

  it('eur and usd deposit as usdt; unknown currencies and networks are refused', async () => {
    const ann = await member(t, 'ann2@wallet.test');
    const eur = (await call(ann, 'GET', '/account/deposit_address/eur?blockchain_key=tron-sim')).json();
    expect(eur.currency).toBe('usdt');
    const bad = await call(ann, 'GET', '/account/deposit_address/xyz');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual(['account.blockchain.doesnt_exist']);
    const wrongNet = await call(ann, 'GET', '/account/deposit_address/trx?blockchain_key=btc-sim');
    expect(wrongNet.statusCode).toBe(422);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/deposit_address/trx' });
    expect(res.statusCode).toBe(401);
  });
});

describe('deposits on a simulated chain', () => {
  it('is pending until 30 confirmations, then credited exactly once; a new address follows', async () => {
    const cat = await member(t, 'cat@wallet.test');
    const address = await depositAddress(cat);
    await tron.faucet(address, 'trx', 25n * TRX);
    await mine(1);
    let list = await deposits(cat);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      currency: 'trx',
      amount: '25',
      state: 'submitted',
      confirmations: 1,
      rid: address,
    });
    expect(balance(cat, 'trx').balance).toBe(0n);
    await mine(28);
    expect((await deposits(cat))[0]).toMatchObject({ state: 'submitted', confirmations: 29 });
    expect(balance(cat, 'trx').balance).toBe(0n);
    await mine(1);
    list = await deposits(cat);
    expect(list[0].state).toBe('collected');
    expect(balance(cat, 'trx').balance).toBe(25n * TRX);
    // Swept to the hot wallet on chain.
    expect(await tron.balance(address, 'trx')).toBe(0n);

    const fresh = await depositAddress(cat);
    expect(fresh).not.toBe(address);
    // The old address keeps working.
    await tron.faucet(address, 'trx', 5n * TRX);
    await mine(30);
    expect(balance(cat, 'trx').balance).toBe(30n * TRX);

    // Re-scanning every block (as after a lost cursor) credits nothing twice.
    await t.db.pool.query(`delete from chain_blocks where blockchain_key = 'tron-sim'`);
    await t.deps.wallet.tick();
    await t.deps.wallet.tick();
    expect(balance(cat, 'trx').balance).toBe(30n * TRX);
    expect(await deposits(cat)).toHaveLength(2);
  });

  it('a reorg before the threshold removes the deposit without a credit', async () => {
    const dan = await member(t, 'dan@wallet.test');
    const address = await depositAddress(dan);
    await tron.faucet(address, 'trx', 7n * TRX);
    await mine(3);
    expect((await deposits(dan))[0].state).toBe('submitted');
    await tron.reorg(3);
    await t.deps.wallet.tick();
    await mine(40);
    const [d] = await deposits(dan);
    expect(d.state).toBe('canceled');
    expect(balance(dan, 'trx').balance).toBe(0n);
  });

  it('a reorg after the credit raises an alert and leaves balances alone', async () => {
    const eve = await member(t, 'eve@wallet.test');
    const address = await depositAddress(eve);
    await tron.faucet(address, 'trx', 9n * TRX);
    await mine(30);
    expect(balance(eve, 'trx').balance).toBe(9n * TRX);
    await tron.reorg(31);
    await t.deps.wallet.tick();
    expect(balance(eve, 'trx').balance).toBe(9n * TRX);
    const alerts = await t.db.pool.query(`select detail from chain_alerts where kind = 'reorg_after_credit'`);
    expect(alerts.rows.map((r) => r.detail.user_id)).toContain(eve.id);
  });

  it('a deposit under the network minimum is rejected, not credited', async () => {
    const fay = await member(t, 'fay@wallet.test');
    await tron.faucet(await depositAddress(fay), 'trx', TRX / 2n);
    await mine(30);
    expect((await deposits(fay))[0].state).toBe('rejected');
    expect(balance(fay, 'trx').balance).toBe(0n);
  });
});

/** Saves and activates a beneficiary with the emailed pin. */
async function activeBeneficiary(who: Member, address: string, currency = 'trx', network = 'tron-sim') {
  const created = await call(who, 'POST', '/account/beneficiaries', {
    name: `to ${address.slice(0, 6)}`,
    currency,
    blockchain_key: network,
    data: { address },
  });
  expect(created.statusCode).toBe(201);
  const pin = await emailedPin(who);
  const activated = await call(who, 'PATCH', `/account/beneficiaries/${created.json().id}/activate`, { pin });
  expect(activated.statusCode).toBe(200);
  return activated.json().id as number;
}

async function emailedPin(who: Member): Promise<string> {
  const row = (
    await t.db.pool.query('select body from mail_outbox where recipient = $1 order by id desc limit 1', [
      who.email,
    ])
  ).rows[0];
  const pin = /Use (\d{6}) to activate/.exec(row?.body ?? '')?.[1];
  if (!pin) throw new Error('no pin mailed');
  return pin;
}

describe('beneficiaries', () => {
  it('are pending until the emailed pin; bad input is refused', async () => {
    const gus = await member(t, 'gus@wallet.test');
    const refusals: [unknown, string][] = [
      [
        { currency: 'trx', blockchain_key: 'tron-sim', data: { address: 'TXYZ' } },
        'account.beneficiary.missing_name',
      ],
      [
        { name: 'x', currency: 'trx', blockchain_key: 'tron-sim', data: { address: '' } },
        'account.beneficiary.missing_address',
      ],
      [
        { name: 'x', currency: 'trx', blockchain_key: 'tron-sim', data: { address: 'not-an-address' } },
        'account.beneficiary.invalid_address',
      ],
      [
        { name: 'x', currency: 'trx', blockchain_key: 'btc-sim', data: { address: 'TXYZ' } },
        'account.blockchain.doesnt_exist',
      ],
    ];
    for (const [body, code] of refusals) {
      const res = await call(gus, 'POST', '/account/beneficiaries', body);
      expect(res.statusCode, code).toBe(422);
      expect(res.json().errors).toEqual([code]);
    }
    expect((await call(gus, 'GET', '/account/beneficiaries')).json()).toEqual([]);

    const address = await tron.createAddress();
    const created = await call(gus, 'POST', '/account/beneficiaries', {
      name: 'Cold storage',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: `${address.address}?dt=memo-42` },
    });
    expect(created.statusCode).toBe(201);
    const b = created.json();
    expect(b).toMatchObject({ state: 'pending', data: { address: address.address, memo: 'memo-42' } });
    const dup = await call(gus, 'POST', '/account/beneficiaries', {
      name: 'again',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: `${address.address}?dt=memo-42` },
    });
    expect(dup.json().errors).toEqual(['account.beneficiary.duplicate_address']);

    const tooSoon = await call(gus, 'POST', `/account/beneficiaries/${b.id}/resend_pin`);
    expect(tooSoon.statusCode).toBe(422);
    expect(tooSoon.json().errors).toEqual(['account.beneficiary.resend_too_soon']);

    const pin = await emailedPin(gus);
    const wrong = pin === '000000' ? '111111' : '000000';
    for (const [body, code] of [
      [{}, 'account.beneficiary.missing_pin'],
      [{ pin: '12a' }, 'account.beneficiary.non_integer_pin'],
      [{ pin: wrong }, 'account.beneficiary.invalid_pin'],
    ] as const) {
      const res = await call(gus, 'PATCH', `/account/beneficiaries/${b.id}/activate`, body);
      expect(res.json().errors).toEqual([code]);
    }
    const ok = await call(gus, 'PATCH', `/account/beneficiaries/${b.id}/activate`, { pin });
    expect(ok.json().state).toBe('active');
  });

  it('a pin dies after 5 wrong tries', async () => {
    const hal = await member(t, 'hal@wallet.test');
    const created = await call(hal, 'POST', '/account/beneficiaries', {
      name: 'x',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: (await tron.createAddress()).address },
    });
    const id = created.json().id;
    const pin = await emailedPin(hal);
    const wrong = pin === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      await call(hal, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin: wrong });
    const late = await call(hal, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin });
    expect(late.json().errors).toEqual(['account.beneficiary.invalid_pin']);
  });

  it("another user's beneficiary is not found; deletion needs an authenticator code", async () => {
    const ivy = await member(t, 'ivy@wallet.test');
    const jon = await member(t, 'jon@wallet.test');
    const id = await activeBeneficiary(ivy, (await tron.createAddress()).address);
    expect(
      (await call(jon, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin: '123456' })).statusCode,
    ).toBe(404);
    expect(
      (await call(jon, 'DELETE', `/account/beneficiaries/${id}`, { otp: await totp(jon) })).statusCode,
    ).toBe(404);
    const noCode = await call(ivy, 'DELETE', `/account/beneficiaries/${id}`, {});
    expect(noCode.json().errors).toEqual(['resource.otp.missing_code']);
    const badCode = await call(ivy, 'DELETE', `/account/beneficiaries/${id}`, { otp: '000000' });
    expect(badCode.json().errors).toEqual(['resource.otp.invalid_code']);
    expect((await call(ivy, 'GET', '/account/beneficiaries?currency=trx')).json()).toHaveLength(1);
    const del = await call(ivy, 'DELETE', `/account/beneficiaries/${id}`, { otp: await totp(ivy) });
    expect(del.statusCode).toBe(204);
    expect((await call(ivy, 'GET', '/account/beneficiaries')).json()).toEqual([]);
  });
});

/** A funded member (credited through the core, as a deposit) with an active beneficiary to a fresh chain address. */
async function withdrawer(email: string, trx: bigint) {
  const who = await member(t, email);
  await t.deps.core.sequencer.submit({
    type: 'Credit',
    user: who.id,
    currency: 'trx',
    amount: trx,
    kind: 'deposit',
  });
  const target = (await tron.createAddress()).address;
  return { who, target, beneficiary: await activeBeneficiary(who, target) };
}

const withdraw = async (who: Member, beneficiary: number, amount: string, otp?: string) =>
  call(who, 'POST', '/account/withdraws', {
    amount,
    otp: otp ?? (await totp(who)),
    beneficiary_id: beneficiary,
    currency: 'trx',
    blockchain_key: 'tron-sim',
  });

describe('withdrawals', () => {
  it('broadcasts from the hot wallet, confirms, and settles amount − fee out and the fee to the exchange', async () => {
    // The hot wallet needs coins on chain.
    const network = t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    const { hotWallet } = await import('../../src/modules/wallet/addresses.ts');
    await tron.faucet((await hotWallet(t.db.pool, t.deps.keys, network)).address, 'trx', 1000n * TRX);
    await mine(1);

    const { who, target, beneficiary } = await withdrawer('kim@wallet.test', 100n * TRX);
    const res = await withdraw(who, beneficiary, '40');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      state: 'accepted',
      amount: '40',
      fee: '1',
      transaction_type: 'external',
      rid: target,
    });
    expect(balance(who, 'trx')).toEqual({ balance: 60n * TRX, locked: 40n * TRX });
    await t.deps.wallet.tick();
    const [sent] = (await call(who, 'GET', '/account/withdraws')).json();
    expect(sent.state).toBe('confirming');
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    await mine(30);
    const [done] = (await call(who, 'GET', '/account/withdraws?state=succeed')).json();
    expect(done.state).toBe('succeed');
    expect(balance(who, 'trx')).toEqual({ balance: 60n * TRX, locked: 0n });
    expect(await tron.balance(target, 'trx')).toBe(39n * TRX);
  });

  it('to an address of another user it settles inside the exchange, with no fee and no chain transaction', async () => {
    const { who } = await withdrawer('lea@wallet.test', 50n * TRX);
    const friend = await member(t, 'max@wallet.test');
    const friendAddress = await depositAddress(friend);
    const beneficiary = await activeBeneficiary(who, friendAddress);
    // The internal minimum is the minimum withdrawal alone (10 TRX), not minimum + fee (11 TRX).
    const res = await withdraw(who, beneficiary, '10');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      state: 'succeed',
      fee: '0',
      transaction_type: 'internal',
      txid: null,
    });
    expect(balance(who, 'trx')).toEqual({ balance: 40n * TRX, locked: 0n });
    expect(balance(friend, 'trx').balance).toBe(10n * TRX);
    const onChain = await t.db.pool.query('select 1 from sim_transactions where to_address = $1', [
      friendAddress,
    ]);
    expect(onChain.rowCount).toBe(0);
  });

  it('refuses every bad request with its code and changes nothing', async () => {
    const { who, beneficiary } = await withdrawer('ned@wallet.test', 20n * TRX);
    const other = await withdrawer('oli@wallet.test', 20n * TRX);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: '' }, 422, 'account.withdraw.missing_amount'],
      [{ amount: '1.12345678901' }, 422, 'account.withdraw.invalid_amount'],
      [{ amount: '12345678901' }, 422, 'account.withdraw.invalid_amount'],
      [{ amount: '1.1234567' }, 422, 'account.withdraw.invalid_amount'],
      [{ otp: '' }, 422, 'account.withdraw.missing_otp'],
      [{ beneficiary_id: undefined }, 422, 'account.withdraw.missing_beneficiary'],
      [{ amount: '10.5' }, 422, 'account.withdraw.amount_too_small'],
      [{ amount: '20.000001' }, 422, 'account.withdraw.insufficient_balance'],
      [{ otp: '000000' }, 422, 'account.withdraw.invalid_otp'],
      [{ beneficiary_id: other.beneficiary }, 404, 'record.not_found'],
      [{ blockchain_key: 'btc-sim' }, 422, 'account.blockchain.doesnt_exist'],
    ];
    for (const [override, status, code] of cases) {
      const body = {
        amount: '15',
        otp: await totp(who),
        beneficiary_id: beneficiary,
        currency: 'trx',
        blockchain_key: 'tron-sim',
        ...override,
      };
      const res = await call(who, 'POST', '/account/withdraws', body);
      expect(res.statusCode, code).toBe(status);
      expect(res.json().errors, JSON.stringify(override)).toEqual([code]);
    }
    const small = await withdraw(who, beneficiary, '10.5');
    expect(small.json().details).toEqual({ min: '11', currency: 'trx' });
    expect(balance(who, 'trx')).toEqual({ balance: 20n * TRX, locked: 0n });
    expect((await call(who, 'GET', '/account/withdraws')).json()).toEqual([]);
  });

  it('needs level 3, two-factor, an active beneficiary, and no password change in the last 24 hours', async () => {
    const { who, beneficiary } = await withdrawer('pam@wallet.test', 20n * TRX);
    await t.db.pool.query('update users set level = 2 where id = $1', [who.id]);
    expect((await withdraw(who, beneficiary, '15')).json().errors).toEqual([
      'account.withdraw.not_permitted',
    ]);
    await t.db.pool.query('update users set level = 3, otp = false where id = $1', [who.id]);
    expect((await withdraw(who, beneficiary, '15')).statusCode).toBe(403);
    await t.db.pool.query(
      `update users set otp = true, password_changed_at = now() - interval '23 hours' where id = $1`,
      [who.id],
    );
    const held = (await call(who, 'GET', '/account/withdraw_permission')).json();
    expect(held.allowed).toBe(false);
    expect(new Date(held.hold_until).getTime()).toBeGreaterThan(Date.now());
    expect((await withdraw(who, beneficiary, '15')).statusCode).toBe(403);
    await t.db.pool.query(
      `update users set password_changed_at = now() - interval '25 hours' where id = $1`,
      [who.id],
    );
    expect((await call(who, 'GET', '/account/withdraw_permission')).json()).toMatchObject({
      allowed: true,
      hold_until: null,
    });

    const pending = await call(who, 'POST', '/account/beneficiaries', {
      name: 'new',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: (await tron.createAddress()).address },
    });
    const res = await withdraw(who, pending.json().id, '15');
    expect(res.json().errors).toEqual(['account.withdraw.beneficiary_not_active']);
    expect(balance(who, 'trx').locked).toBe(0n);
  });

  it('100 concurrent withdrawals from one account never overdraw', async () => {
    const { who, beneficiary } = await withdrawer('quinn@wallet.test', 500n * TRX);
    const code = oathtoolCode(who.secret);
    await t.db.pool.query('update users set otp_last_step = 0 where id = $1', [who.id]);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(who, 'POST', '/account/withdraws', {
          amount: '20',
          otp: code,
          beneficiary_id: beneficiary,
          currency: 'trx',
          blockchain_key: 'tron-sim',
        }),
      ),
    );
    // The same code is accepted once: replay protection holds under concurrency too.
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(
      results
        .filter((r) => r.statusCode === 422)
        .every((r) => r.json().errors[0] === 'account.withdraw.invalid_otp'),
    ).toBe(true);

    // Without the code in the way, the core is what stops overdrafts: 480 TRX left, 20 each, 24 fit.
    const { createWithdrawal } = await import('../../src/modules/wallet/withdrawals.ts');
    const userRow = (await t.db.pool.query('select * from users where id = $1', [who.id])).rows[0];
    const deps = { ...t.deps.wallet.withdrawDeps(), verifyTotp: async () => {} };
    const input = {
      amount: '20',
      otp: '000000',
      beneficiary_id: beneficiary,
      currency: 'trx',
      blockchain_key: 'tron-sim',
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () => createWithdrawal(deps, userRow, input)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(24);
    const refused = outcomes
      .filter((o) => o.status === 'rejected')
      .map((o) => String((o as PromiseRejectedResult).reason));
    expect(refused.every((r) => r.includes('account.withdraw.insufficient_balance'))).toBe(true);
    expect(balance(who, 'trx')).toEqual({ balance: 0n, locked: 500n * TRX });
  });

  it('a broadcast with an unknown outcome goes to errored and is never resent', async () => {
    const { who, beneficiary, target } = await withdrawer('rae@wallet.test', 30n * TRX);
    const network = t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    const { BroadcastUnknownError } = await import('../../src/adapters/chains/port.ts');
    const realSend = network.chain.send;
    let sends = 0;
    network.chain.send = async (request) => {
      if (request.to === target) sends++;
      throw new BroadcastUnknownError(new Error('socket hang up'));
    };
    try {
      expect((await withdraw(who, beneficiary, '20')).statusCode).toBe(201);
      await t.deps.wallet.tick();
      await t.deps.wallet.tick();
    } finally {
      network.chain.send = realSend;
    }
    expect(sends).toBe(1);
    const [w] = (await call(who, 'GET', '/account/withdraws?state=failed')).json();
    expect(w.state).toBe('errored');
    // The funds stay held until an operator decides; finding it never left, they release it.
    expect(balance(who, 'trx')).toEqual({ balance: 10n * TRX, locked: 20n * TRX });
    const { walletCommand } = await import('../../src/modules/wallet/cli.ts');
    const resolve = () =>
      walletCommand(['withdraw', 'resolve', String(w.id), 'failed'], t.db.pool, t.deps.config);
    expect(await resolve()).toBe(0);
    expect(await resolve()).toBe(0);
    await t.deps.wallet.tick();
    const [released] = (await call(who, 'GET', '/account/withdraws?state=failed')).json();
    expect(released).toMatchObject({ id: w.id, state: 'failed' });
    expect(balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
    expect(await resolve()).toBe(1);
  });

  it('a broadcast the node refuses fails cleanly and releases the funds', async () => {
    const { who, beneficiary } = await withdrawer('sam@wallet.test', 30n * TRX);
    const network = t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    const realSend = network.chain.send;
    network.chain.send = async () => {
      throw new Error('insufficient funds in the hot wallet');
    };
    try {
      await withdraw(who, beneficiary, '20');
      await t.deps.wallet.tick();
    } finally {
      network.chain.send = realSend;
    }
    const [w] = (await call(who, 'GET', '/account/withdraws')).json();
    expect(w.state).toBe('failed');
    expect(balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
  });
});

describe('adjustments', () => {
  it('are applied through the core as double-entry postings, and listed', async () => {
    const { requestAdjustment } = await import('../../src/modules/wallet/adjustments.ts');
    const tom = await member(t, 'tom@wallet.test');
    await requestAdjustment(t.db.pool, tom.email, 'trx', '12.5', 'goodwill');
    await requestAdjustment(t.db.pool, tom.email, 'trx', '-2.5', 'correction');
    await requestAdjustment(t.db.pool, tom.email, 'trx', '-100', 'too much');
    await expect(requestAdjustment(t.db.pool, tom.email, 'trx', '1.1234567', '')).rejects.toThrow(/decimals/);
    await t.deps.wallet.tick();
    expect(balance(tom, 'trx').balance).toBe(10n * TRX);
    const list = (await call(tom, 'GET', '/account/adjustments')).json();
    expect(list.map((a: { amount: string; state: string }) => [a.amount, a.state])).toEqual([
      ['-100', 'rejected'],
      ['-2.5', 'accepted'],
      ['12.5', 'accepted'],
    ]);
    expect((await call(tom, 'GET', '/account/balance_adjustments?state=rejected')).json()).toHaveLength(1);
  });
});

describe('history lists', () => {
  it('filter by the spec state expansions and dates, page, and count in the Total header', async () => {
    const uma = await member(t, 'uma@wallet.test');
    const address = await depositAddress(uma);
    for (const amount of [2n, 3n, 4n]) await tron.faucet(address, 'trx', amount * TRX);
    await mine(1);
    await tron.faucet(await depositAddress(uma), 'trx', 6n * TRX);
    await mine(30);
    await tron.faucet(await depositAddress(uma), 'trx', 8n * TRX);
    await mine(1);
    const page = await call(uma, 'GET', '/account/deposits?limit=2&page=1');
    expect(page.headers.total).toBe('5');
    expect(page.json()).toHaveLength(2);
    expect((await deposits(uma, '?state=collected')).length).toBe(4);
    expect((await deposits(uma, '?state=submitted')).length).toBe(1);
    const now = Math.floor(Date.now() / 1000);
    expect((await deposits(uma, `?time_from=${now - 3600}&time_to=${now + 60}`)).length).toBe(5);
    expect((await deposits(uma, `?time_from=${now - 7200}&time_to=${now - 3600}`)).length).toBe(0);
    const reversed = await call(uma, 'GET', `/account/deposits?time_from=${now}&time_to=${now - 60}`);
    expect(reversed.json().errors).toEqual(['account.history.invalid_date_range']);
    const future = await call(uma, 'GET', `/account/deposits?time_from=${now + 10 * 86_400}`);
    expect(future.json().errors).toEqual(['account.history.invalid_date_range']);
    expect((await call(uma, 'GET', '/account/deposits?state=bogus')).statusCode).toBe(422);
  });
});

describe('swaps', () => {
  it('quotes from the book, executes at the quote once, and keeps the history', async () => {
    const maker = await member(t, 'vic@wallet.test');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: maker.id,
      currency: 'usdt',
      amount: 10_000n * 1_000_000n,
      kind: 'deposit',
    });
    const bid = await call(maker, 'POST', '/market/orders', {
      market: 'trxusdt',
      side: 'buy',
      volume: '1000',
      price: '0.1',
    });
    expect(bid.statusCode).toBe(201);
    await t.deps.core.sequencer.submit({
      type: 'FundLiquidity',
      currency: 'usdt',
      amount: 1_000n * 1_000_000n,
    });

    const wes = await member(t, 'wes@wallet.test');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: wes.id,
      currency: 'trx',
      amount: 100n * TRX,
      kind: 'deposit',
    });
    const quote = (
      await call(wes, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=50')
    ).json();
    // 50 TRX at 0.1 = 5 USDT, minus the 0.2% trx swap fee (0.01 USDT).
    expect(quote).toMatchObject({ price: '0.1', total: '4.99', fee: '0.01' });

    const body = { from_currency: 'trx', to_currency: 'usdt', amount: '50', quote_id: quote.quote_id };
    const other = await member(t, 'xia@wallet.test');
    expect((await call(other, 'POST', '/account/swaps', body)).json().errors).toEqual([
      'account.swap.quote_expired',
    ]);
    const tampered = { ...body, amount: '60' };
    expect((await call(wes, 'POST', '/account/swaps', tampered)).json().errors).toEqual([
      'account.swap.quote_expired',
    ]);

    const done = await call(wes, 'POST', '/account/swaps', body);
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({
      price: '50',
      ask_currency: 'trx',
      total: '4.99',
      currency: 'usdt',
      state: 'completed',
    });
    const again = await call(wes, 'POST', '/account/swaps', body);
    expect(again.json().id).toBe(done.json().id);
    expect(balance(wes, 'trx').balance).toBe(50n * TRX);
    expect(balance(wes, 'usdt').balance).toBe(4_990_000n);

    const poor = await call(
      wes,
      'GET',
      '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=500',
    );
    const rejected = await call(wes, 'POST', '/account/swaps', {
      ...body,
      amount: '500',
      quote_id: poor.json().quote_id,
    });
    expect(rejected.json().errors).toEqual(['account.swap.insufficient_balance']);
    const history = await call(wes, 'GET', '/account/swaps?limit=10');
    expect(history.headers.total).toBe('2');
    expect(history.json().map((s: { state: string }) => s.state)).toEqual(['rejected', 'completed']);
    expect((await call(wes, 'GET', '/account/swaps?state=rejected')).json()).toHaveLength(1);

    // The price moves against the user beyond the tolerance before they execute: the quote is refused.
    const fresh = (
      await call(wes, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=10')
    ).json();
    const cancel = await call(maker, 'POST', `/market/orders/${bid.json().id}/cancel`);
    expect(cancel.statusCode).toBe(201);
    await call(maker, 'POST', '/market/orders', {
      market: 'trxusdt',
      side: 'buy',
      volume: '1000',
      price: '0.09',
    });
    const moved = await call(wes, 'POST', '/account/swaps', {
      from_currency: 'trx',
      to_currency: 'usdt',
      amount: '10',
      quote_id: fresh.quote_id,
    });
    expect(moved.json().errors).toEqual(['account.swap.quote_expired']);
    expect(balance(wes, 'trx').balance).toBe(50n * TRX);

    // Valuation: TRX is worth its best bid in USDT; the line chart has one point per day.
    const pie = (await call(wes, 'GET', '/account/balances/pie_chart')).json();
    expect(pie).toEqual(
      expect.arrayContaining([
        { currency: 'trx', total: '50', value: '4.5' },
        { currency: 'usdt', total: '4.99', value: '4.99' },
      ]),
    );
    const line = (await call(wes, 'GET', '/account/balances/line_chart')).json();
    expect(line).toHaveLength(7);
    expect(line[6].value).toBe('9.49');
    const rows = (await call(wes, 'GET', '/account/balances')).json();
    expect(rows.find((r: { currency: string }) => r.currency === 'trx')).toMatchObject({
      usdt_price: '0.09',
      name: 'TRON',
    });
    expect(rows.find((r: { currency: string }) => r.currency === 'eur').usdt_price).toBe('1');

    const bad = await call(wes, 'GET', '/account/amount_quote?from_currency=trx&to_currency=trx&amount=1');
    expect(bad.json().errors).toEqual(['account.swap.invalid_pair']);
    const noPrice = await call(
      wes,
      'GET',
      '/account/amount_quote?from_currency=eur&to_currency=trx&amount=1',
    );
    expect(noPrice.json().errors).toEqual(['account.swap.no_price']);
  });
});
