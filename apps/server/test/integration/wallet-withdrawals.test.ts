import { describe, expect, it, vi } from 'vitest';
import { oathtoolCode } from '../support/identity.ts';
import { externalAddress, TRX, walletSuite } from '../support/wallet.ts';

/** Withdrawals: external broadcast and settlement, internal transfers, refusals, concurrency, unknown outcomes. */
const w = walletSuite();
const { member, call, balance, totp, depositAddress, mine, activeBeneficiary, withdrawer, withdraw } = w;

describe('withdrawals', () => {
  it('refuses while withdrawals are switched off for the network, holding nothing', async () => {
    const { who, beneficiary } = await withdrawer('off@wallet.test', 50n * TRX);
    const set = (on: boolean) =>
      w.t.db.pool.query(
        `update currency_networks set withdraw_enabled = $1 where currency_id = 'trx' and blockchain_key = 'tron-sim'`,
        [on],
      );
    await set(false);
    try {
      const res = await withdraw(who, beneficiary, '20');
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(['account.withdraw.disabled']);
      expect(balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    } finally {
      await set(true);
    }
  });

  it('broadcasts from the hot wallet, confirms, and settles amount − fee out and the fee to the exchange', async () => {
    // The hot wallet needs coins on chain.
    const network = w.t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    const { hotWallet } = await import('../../src/modules/wallet/addresses.ts');
    await w.tron.faucet((await hotWallet(w.t.db.pool, network)).address, 'trx', 1000n * TRX);
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
    // The request is in the security log (issue 31), written with the withdrawal.
    const logged = await w.t.db.pool.query(
      `select a.data from activities a join users u on u.id = a.user_id
        where u.email = 'kim@wallet.test' and a.action = 'withdraw.request' and a.topic = 'withdraw'`,
    );
    expect(logged.rows.map((r) => r.data)).toEqual([
      {
        id: res.json().id,
        currency: 'trx',
        blockchain_key: 'tron-sim',
        amount: '40',
        rid: target,
        beneficiary_id: beneficiary,
      },
    ]);
    await w.t.deps.wallet.tick();
    const [sent] = (await call(who, 'GET', '/account/withdraws')).json();
    expect(sent.state).toBe('confirming');
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    await mine(30);
    const [done] = (await call(who, 'GET', '/account/withdraws?state=succeed')).json();
    expect(done.state).toBe('succeed');
    expect(balance(who, 'trx')).toEqual({ balance: 60n * TRX, locked: 0n });
    expect(await w.tronChain.balance(target, 'trx')).toBe(39n * TRX);
  });

  it('to an address of another user it settles inside the exchange, with no fee and no chain transaction', async () => {
    const { who } = await withdrawer('lea@wallet.test', 50n * TRX);
    const friend = await member('max@wallet.test');
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
    // Nothing reached the chain: the friend's deposit address holds nothing there, even after a block.
    await w.tron.mine(1);
    expect(await w.tronChain.balance(friendAddress, 'trx')).toBe(0n);
    const broadcast = await w.t.db.pool.query(`select 1 from signer_log where destination = $1`, [
      friendAddress,
    ]);
    expect(broadcast.rowCount).toBe(0);
  });

  it('gives the receiver of an internal transfer a deposit record, on his history and his private stream at once', async () => {
    const { who } = await withdrawer('ida@wallet.test', 50n * TRX);
    const friend = await member('jon@wallet.test');
    const friendAddress = await depositAddress(friend);
    const beneficiary = await activeBeneficiary(who, friendAddress);
    const { privateStreamKey } = await import('../../src/modules/ranger/streams.ts');
    const publish = vi.spyOn(w.t.deps.hub, 'publish');
    try {
      const res = await withdraw(who, beneficiary, '12.345678');
      expect(res.statusCode).toBe(201);
      const reference = res.json().tid as string;
      expect(reference).toMatch(/^W\d+$/);
      const expected = {
        currency: 'trx',
        blockchain_key: 'tron-sim',
        amount: '12.345678',
        fee: '0',
        state: 'collected',
        txid: reference,
        blockchain_txid: null,
        rid: friendAddress,
        transaction_type: 'internal',
      };
      await expect
        .poll(() => publish.mock.calls.find(([stream]) => stream === privateStreamKey(friend.id, 'deposit')))
        .toEqual([privateStreamKey(friend.id, 'deposit'), expect.objectContaining(expected), 'deposit']);
      const list = await w.deposits(friend);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject(expected);
      expect((await w.deposits(friend, '?state=collected')).length).toBe(1);
      expect(balance(friend, 'trx').balance).toBe(12_345_678n);
      // The sender's side is unchanged: one internal withdrawal, no deposit.
      expect(await w.deposits(who)).toEqual([]);
    } finally {
      publish.mockRestore();
    }
  });

  it("accepts the slider's 100 %: the whole balance, exactly, however long (17 characters)", async () => {
    const { who, beneficiary } = await withdrawer('pia@wallet.test', 1_000_545_300_046_001n);
    const res = await withdraw(who, beneficiary, '1000545300.046001');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ state: 'accepted', amount: '1000545300.046001' });
    expect(balance(who, 'trx')).toEqual({ balance: 0n, locked: 1_000_545_300_046_001n });
  });

  it('refuses every bad request with its code and changes nothing', async () => {
    const { who, beneficiary } = await withdrawer('ned@wallet.test', 20n * TRX);
    const other = await withdrawer('oli@wallet.test', 20n * TRX);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: '' }, 422, 'account.withdraw.missing_amount'],
      [{ amount: '1.12345678901' }, 422, 'account.withdraw.invalid_amount'],
      // 10 characters is the input's typing rule, not the request's: a longer amount is judged by the balance.
      [{ amount: '12345678901' }, 422, 'account.withdraw.insufficient_balance'],
      [{ amount: '1'.repeat(38) }, 422, 'account.withdraw.invalid_amount'],
      [{ amount: '1.1234567' }, 422, 'account.withdraw.invalid_amount'],
      [{ otp: '' }, 422, 'account.withdraw.missing_otp'],
      [{ beneficiary_id: undefined }, 422, 'account.withdraw.missing_beneficiary'],
      [{ amount: '10.5' }, 422, 'account.withdraw.amount_too_small'],
      [{ amount: '20.000001' }, 422, 'account.withdraw.insufficient_balance'],
      [{ otp: '000000' }, 422, 'account.withdraw.invalid_otp'],
      [{ beneficiary_id: other.beneficiary }, 404, 'record.not_found'],
      [{ blockchain_key: 'btc-sim' }, 422, 'account.blockchain.doesnt_exist'],
      // Without a network the beneficiary's is taken: another user's is as unknown as ever.
      [{ blockchain_key: undefined, beneficiary_id: other.beneficiary }, 404, 'record.not_found'],
      [{ blockchain_key: undefined, beneficiary_id: 999_999 }, 404, 'record.not_found'],
      [{ blockchain_key: undefined, currency: 'btc' }, 422, 'account.blockchain.doesnt_exist'],
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

  it("takes the beneficiary's network when the request names none (BaseApp 2.6 sends no blockchain_key)", async () => {
    const { who, beneficiary, target } = await withdrawer('uma@wallet.test', 50n * TRX);
    const res = await call(who, 'POST', '/account/withdraws', {
      amount: '20',
      otp: await totp(who),
      beneficiary_id: beneficiary,
      currency: 'trx',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ blockchain_key: 'tron-sim', rid: target, amount: '20', fee: '1' });
    expect(balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 20n * TRX });
  });

  it('GET /account/transactions lists deposits and withdrawals together, with filters and paging', async () => {
    const { who, beneficiary, target } = await withdrawer('tia@wallet.test', 50n * TRX);
    const address = await depositAddress(who);
    await w.tron.faucet(address, 'trx', 7n * TRX);
    await mine(1);
    expect((await withdraw(who, beneficiary, '20')).statusCode).toBe(201);
    const all = await call(who, 'GET', '/account/transactions');
    expect(all.statusCode).toBe(200);
    expect(all.headers.total).toBe('2');
    const [newest, oldest] = all.json();
    expect(newest).toMatchObject({
      type: 'Withdraw',
      currency: 'trx',
      amount: '20',
      fee: '1',
      address: target,
    });
    expect(oldest).toMatchObject({
      type: 'Deposit',
      currency: 'trx',
      amount: '7',
      address,
      state: 'submitted',
    });
    expect(oldest.confirmations).toBe(1);
    expect(oldest.txid).toMatch(/^[0-9a-f]{64}$/);
    const asc = (await call(who, 'GET', '/account/transactions?order_by=asc')).json();
    expect(asc.map((x: { type: string }) => x.type)).toEqual(['Deposit', 'Withdraw']);
    const paged = await call(who, 'GET', '/account/transactions?limit=1&page=2');
    expect([paged.json(), paged.headers.total, paged.headers.page]).toEqual([[oldest], '2', '2']);
    const byTxid = (await call(who, 'GET', `/account/transactions?txid=${oldest.txid}`)).json();
    expect(byTxid).toEqual([oldest]);
    // The deposit is still submitted: a filter on collected deposits leaves only the withdrawal.
    const pending = (await call(who, 'GET', '/account/transactions?deposit_state=collected')).json();
    expect(pending.map((x: { type: string }) => x.type)).toEqual(['Withdraw']);
    expect((await call(who, 'GET', '/account/transactions?currency=btc')).json()).toEqual([]);
    const bad = await call(who, 'GET', '/account/transactions?withdraw_state=nope');
    expect([bad.statusCode, bad.json()]).toEqual([422, { errors: ['account.history.invalid_state'] }]);
    // Someone else's list holds none of it.
    const other = await member('tom@wallet.test');
    expect((await call(other, 'GET', '/account/transactions')).json()).toEqual([]);
  });

  it('refuses a saved address that fails its checksum (saved before addresses were checked), holding nothing', async () => {
    const { who, beneficiary } = await withdrawer('vic@wallet.test', 30n * TRX);
    await w.t.db.pool.query('update beneficiaries set address = $2 where id = $1', [
      beneficiary,
      `T${'x'.repeat(33)}`,
    ]);
    const res = await withdraw(who, beneficiary, '20');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(['account.beneficiary.invalid_address']);
    expect(balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
    expect((await call(who, 'GET', '/account/withdraws')).json()).toEqual([]);
  });

  it('needs level 3, two-factor, an active beneficiary, and no password change in the last 24 hours', async () => {
    const { who, beneficiary } = await withdrawer('pam@wallet.test', 20n * TRX);
    await w.t.db.pool.query('update users set level = 2 where id = $1', [who.id]);
    expect((await withdraw(who, beneficiary, '15')).json().errors).toEqual([
      'account.withdraw.not_permitted',
    ]);
    await w.t.db.pool.query('update users set level = 3, otp = false where id = $1', [who.id]);
    expect((await withdraw(who, beneficiary, '15')).statusCode).toBe(403);
    await w.t.db.pool.query(
      `update users set otp = true, password_changed_at = now() - interval '23 hours' where id = $1`,
      [who.id],
    );
    const held = (await call(who, 'GET', '/account/withdraw_permission')).json();
    expect(held.allowed).toBe(false);
    expect(new Date(held.hold_until).getTime()).toBeGreaterThan(Date.now());
    expect((await withdraw(who, beneficiary, '15')).statusCode).toBe(403);
    await w.t.db.pool.query(
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
      data: { address: externalAddress('tron') },
    });
    const res = await withdraw(who, pending.json().id, '15');
    expect(res.json().errors).toEqual(['account.withdraw.beneficiary_not_active']);
    expect(balance(who, 'trx').locked).toBe(0n);
  });

  it('100 concurrent withdrawals from one account never overdraw', async () => {
    const { who, beneficiary } = await withdrawer('quinn@wallet.test', 500n * TRX);
    const code = oathtoolCode(who.secret);
    await w.t.db.pool.query('update users set otp_last_step = 0 where id = $1', [who.id]);
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
    // The same code is accepted once: replay protection holds under concurrency too, and says the code was used.
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(
      results
        .filter((r) => r.statusCode === 422)
        .every((r) => r.json().errors[0] === 'resource.otp.code_used'),
    ).toBe(true);

    // Without the code in the way, the core is what stops overdrafts: 480 TRX left, 20 each, 24 fit.
    const { createWithdrawal } = await import('../../src/modules/wallet/withdrawals.ts');
    const userRow = (await w.t.db.pool.query('select * from users where id = $1', [who.id])).rows[0];
    const deps = { ...w.t.deps.wallet.withdrawDeps(), verifyTotp: async () => {} };
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
    const network = w.t.deps.wallet.chains.get('tron-sim');
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
      await w.t.deps.wallet.tick();
      await w.t.deps.wallet.tick();
    } finally {
      network.chain.send = realSend;
    }
    expect(sends).toBe(1);
    const [errored] = (await call(who, 'GET', '/account/withdraws?state=failed')).json();
    expect(errored.state).toBe('errored');
    // The funds stay held until an operator decides; finding it never left, they release it.
    expect(balance(who, 'trx')).toEqual({ balance: 10n * TRX, locked: 20n * TRX });
    const { walletCommand } = await import('../../src/modules/wallet/cli.ts');
    const resolve = () =>
      walletCommand(['withdraw', 'resolve', String(errored.id), 'failed'], w.t.db.pool, w.t.deps.config);
    expect(await resolve()).toBe(0);
    expect(await resolve()).toBe(0);
    await w.t.deps.wallet.tick();
    const [released] = (await call(who, 'GET', '/account/withdraws?state=failed')).json();
    expect(released).toMatchObject({ id: errored.id, state: 'failed' });
    expect(balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
    expect(await resolve()).toBe(1);
  });

  it('a broadcast the node refuses fails cleanly and releases the funds', async () => {
    const { who, beneficiary } = await withdrawer('sam@wallet.test', 30n * TRX);
    const network = w.t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    const realSend = network.chain.send;
    network.chain.send = async () => {
      throw new Error('insufficient funds in the hot wallet');
    };
    try {
      await withdraw(who, beneficiary, '20');
      await w.t.deps.wallet.tick();
    } finally {
      network.chain.send = realSend;
    }
    const [failed] = (await call(who, 'GET', '/account/withdraws')).json();
    expect(failed.state).toBe('failed');
    expect(balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
  });
});
