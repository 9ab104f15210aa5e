import { describe, expect, it } from 'vitest';
import { externalAddress, walletSuite } from '../support/wallet.ts';

/** Peatio 2.6's beneficiary reads: the list's filters (currency, currency_id, state) and one by id. */
const w = walletSuite();
const { member, call, activeBeneficiary } = w;

/** Saves a pending beneficiary (not activated); returns its id. */
async function pending(who: Awaited<ReturnType<typeof member>>, currency: string, network: string) {
  const created = await call(who, 'POST', '/account/beneficiaries', {
    name: `pending ${currency}`,
    currency,
    blockchain_key: network,
    data: { address: externalAddress(currency === 'btc' ? 'btc' : 'tron') },
  });
  expect(created.statusCode).toBe(201);
  return created.json().id as number;
}

const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((b) => b.id).sort();

describe('GET /account/beneficiaries filters as Peatio', () => {
  it('by currency_id, currency and state; an unknown currency or state is refused', async () => {
    const ann = await member('ann@peatio-ben.test');
    const btcActive = await activeBeneficiary(ann, externalAddress('btc'), 'btc', 'btc-sim');
    const trxActive = await activeBeneficiary(ann, externalAddress('tron'));
    const btcPending = await pending(ann, 'btc', 'btc-sim');
    const all = [btcActive, trxActive, btcPending].sort();

    expect(ids(await call(ann, 'GET', '/account/beneficiaries'))).toEqual(all);
    expect(ids(await call(ann, 'GET', '/account/beneficiaries?currency_id=btc'))).toEqual(
      [btcActive, btcPending].sort(),
    );
    expect(ids(await call(ann, 'GET', '/account/beneficiaries?currency_id=BTC'))).toEqual(
      [btcActive, btcPending].sort(),
    );
    expect(ids(await call(ann, 'GET', '/account/beneficiaries?currency=trx'))).toEqual([trxActive]);
    // Peatio's `currency` is the declared one and wins over a raw `currency_id`.
    expect(ids(await call(ann, 'GET', '/account/beneficiaries?currency=trx&currency_id=btc'))).toEqual([
      trxActive,
    ]);
    expect(ids(await call(ann, 'GET', '/account/beneficiaries?state=active'))).toEqual(
      [btcActive, trxActive].sort(),
    );
    expect(ids(await call(ann, 'GET', '/account/beneficiaries?currency_id=btc&state=pending'))).toEqual([
      btcPending,
    ]);
    // A raw currency_id is not checked by Peatio: an unknown one just matches nothing.
    expect((await call(ann, 'GET', '/account/beneficiaries?currency_id=zzz')).json()).toEqual([]);

    const unknownCurrency = await call(ann, 'GET', '/account/beneficiaries?currency=zzz');
    expect(unknownCurrency.statusCode).toBe(422);
    expect(unknownCurrency.json()).toEqual({ errors: ['account.currency.doesnt_exist'] });
    const badState = await call(ann, 'GET', '/account/beneficiaries?state=archived');
    expect(badState.statusCode).toBe(422);
    expect(badState.json()).toEqual({ errors: ['account.beneficiary.invalid_state'] });
  });

  it("never lists another user's beneficiaries, and needs a signed-in user", async () => {
    const bob = await member('bob@peatio-ben.test');
    const cat = await member('cat@peatio-ben.test');
    await activeBeneficiary(bob, externalAddress('btc'), 'btc', 'btc-sim');
    expect((await call(cat, 'GET', '/account/beneficiaries?currency_id=btc')).json()).toEqual([]);
    const anonymous = await w.t.app.inject({
      method: 'GET',
      url: '/api/v2/peatio/account/beneficiaries?currency_id=btc',
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().errors).toHaveLength(1);
  });
});

describe('GET /account/beneficiaries/{id}', () => {
  it("answers the caller's own in the list's shape", async () => {
    const dan = await member('dan@peatio-ben.test');
    const active = await activeBeneficiary(dan, externalAddress('tron'));
    const waiting = await pending(dan, 'btc', 'btc-sim');
    const list = (await call(dan, 'GET', '/account/beneficiaries')).json() as { id: number }[];
    for (const id of [active, waiting]) {
      const one = await call(dan, 'GET', `/account/beneficiaries/${id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(list.find((b) => b.id === id));
    }
    expect((await call(dan, 'GET', `/account/beneficiaries/${waiting}`)).json()).toMatchObject({
      state: 'pending',
      currency: 'btc',
      blockchain_key: 'btc-sim',
    });
  });

  it("answers another user's exactly as an unknown id (404 record.not_found); refuses a non-integer id and no session", async () => {
    const eve = await member('eve@peatio-ben.test');
    const fay = await member('fay@peatio-ben.test');
    const eves = await activeBeneficiary(eve, externalAddress('tron'));
    const theirs = await call(fay, 'GET', `/account/beneficiaries/${eves}`);
    const unknown = await call(fay, 'GET', '/account/beneficiaries/987654321');
    for (const res of [theirs, unknown]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['record.not_found'] });
    }
    expect(theirs.body).toBe(unknown.body);
    const zero = await call(fay, 'GET', '/account/beneficiaries/0');
    expect(zero.statusCode).toBe(404);

    const word = await call(fay, 'GET', '/account/beneficiaries/abc');
    expect(word.statusCode).toBe(422);
    expect(word.json()).toEqual({ errors: ['account.beneficiary.non_integer_id'] });

    const anonymous = await w.t.app.inject({
      method: 'GET',
      url: `/api/v2/peatio/account/beneficiaries/${eves}`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('address');
  });
});
