import { describe, expect, it } from 'vitest';
import { externalAddress, TRX, walletSuite } from '../support/wallet.ts';

/** Saved withdrawal addresses (pin, resend, attempts, deletion) and operator adjustments. */
const w = walletSuite();
const { member, call, balance, totp, emailedPin, activeBeneficiary } = w;

describe('beneficiaries', () => {
  it('are pending until the emailed pin; bad input is refused', async () => {
    const gus = await member('gus@wallet.test');
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

    const address = { address: externalAddress('tron') };
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

  it('must pass the checksum of the network: a made-up address of the right shape is refused and not stored', async () => {
    const kai = await member('kai@wallet.test');
    const save = (address: string, currency = 'trx', blockchain_key = 'tron-sim') =>
      call(kai, 'POST', '/account/beneficiaries', { name: 'x', currency, blockchain_key, data: { address } });
    const usdtContract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    for (const [address, currency, network] of [
      [`T${'x'.repeat(33)}`, 'trx', 'tron-sim'],
      [`${usdtContract.slice(0, -1)}u`, 'trx', 'tron-sim'], // one character changed
      [`bcrt1q${'x'.repeat(38)}`, 'btc', 'btc-sim'],
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'btc', 'btc-sim'], // mainnet, on a regtest chain
    ]) {
      const res = await save(address!, currency, network);
      expect(res.statusCode, address).toBe(422);
      expect(res.json(), address).toEqual({ errors: ['account.beneficiary.invalid_address'] });
    }
    const stored = await w.t.db.pool.query('select 1 from beneficiaries where user_id = $1', [kai.id]);
    expect(stored.rowCount).toBe(0);

    const tron = await save(usdtContract);
    expect(tron.statusCode).toBe(201);
    expect(tron.json().data).toEqual({ address: usdtContract });
    const regtest = await save('BCRT1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KYGT080', 'btc', 'btc-sim');
    expect(regtest.statusCode).toBe(201);
    expect(regtest.json().data).toEqual({ address: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080' });
  });

  it("the pin's resend gap and its 10 minutes are read on the app's clock", async () => {
    const lea = await member('lea@wallet.test');
    const save = async (name: string) => {
      const created = await call(lea, 'POST', '/account/beneficiaries', {
        name,
        currency: 'trx',
        blockchain_key: 'tron-sim',
        data: { address: externalAddress('tron') },
      });
      expect(created.statusCode).toBe(201);
      return created.json().id as number;
    };
    const resend = (id: number) => call(lea, 'POST', `/account/beneficiaries/${id}/resend_pin`);
    const activate = (id: number, pin: string) =>
      call(lea, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin });
    // A resend waits a minute: two seconds short it is refused, a second past it a new pin is mailed.
    const late = await save('late');
    w.t.clock.advance(58_000);
    expect((await resend(late)).json().errors).toEqual(['account.beneficiary.resend_too_soon']);
    w.t.clock.advance(3_000);
    expect((await resend(late)).statusCode).toBe(201);
    const latePin = await emailedPin(lea);
    const soon = await save('soon');
    const soonPin = await emailedPin(lea);
    // Both pins were sent a moment ago on the app's clock: five seconds before their end one still works, five
    // seconds after it the other is refused.
    w.t.clock.advance(10 * 60_000 - 5_000);
    expect((await activate(soon, soonPin)).json().state).toBe('active');
    w.t.clock.advance(10_000);
    expect((await activate(late, latePin)).json().errors).toEqual(['account.beneficiary.invalid_pin']);
  });

  it('a pin dies after 5 wrong tries', async () => {
    const hal = await member('hal@wallet.test');
    const created = await call(hal, 'POST', '/account/beneficiaries', {
      name: 'x',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: externalAddress('tron') },
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
    const ivy = await member('ivy@wallet.test');
    const jon = await member('jon@wallet.test');
    const id = await activeBeneficiary(ivy, externalAddress('tron'));
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
    // Ivy's security log (issue 31): added, activated, removed; nothing for Jon's refused tries.
    const logged = await w.t.db.pool.query(
      `select u.email, a.action, a.data->>'id' as id from activities a join users u on u.id = a.user_id
        where a.topic = 'beneficiary' and u.email in ('ivy@wallet.test', 'jon@wallet.test') order by a.id`,
    );
    expect(logged.rows).toEqual(
      ['beneficiary.create', 'beneficiary.activate', 'beneficiary.delete'].map((action) => ({
        email: 'ivy@wallet.test',
        action,
        id: String(id),
      })),
    );
  });

  it("say whether the address is another user's deposit address here (an internal transfer)", async () => {
    const kay = await member('kay@wallet.test');
    const lou = await member('lou@wallet.test');
    const louAddress = await w.depositAddress(lou);
    const outside = externalAddress('tron');
    const created = await call(kay, 'POST', '/account/beneficiaries', {
      name: 'Lou',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: louAddress },
    });
    expect(created.json()).toMatchObject({ state: 'pending', internal: true });
    const louId = created.json().id as number;
    const activated = await call(kay, 'PATCH', `/account/beneficiaries/${louId}/activate`, {
      pin: await emailedPin(kay),
    });
    expect(activated.json()).toMatchObject({ state: 'active', internal: true });
    const outsideId = await activeBeneficiary(kay, outside);
    const list = (await call(kay, 'GET', '/account/beneficiaries?currency=trx')).json() as {
      id: number;
      internal: boolean;
    }[];
    expect(list.map((b) => [b.id, b.internal])).toEqual([
      [outsideId, false],
      [louId, true],
    ]);
  });
});

describe('adjustments', () => {
  it('are applied through the core as double-entry postings, and listed', async () => {
    const { requestAdjustment } = await import('../../src/modules/wallet/adjustments.ts');
    const tom = await member('tom@wallet.test');
    await requestAdjustment(w.t.db.pool, tom.email, 'trx', '12.5', 'goodwill');
    await requestAdjustment(w.t.db.pool, tom.email, 'trx', '-2.5', 'correction');
    await requestAdjustment(w.t.db.pool, tom.email, 'trx', '-100', 'too much');
    await expect(requestAdjustment(w.t.db.pool, tom.email, 'trx', '1.1234567', '')).rejects.toThrow(
      /decimals/,
    );
    await w.t.deps.wallet.tick();
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
