import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type BaseAppClient, baseAppUser } from '../support/contract.ts';
import { outbox } from '../support/identity.ts';
import { externalAddress } from '../support/wallet.ts';

// Peatio's wallet contract as BaseApp 2.6 uses it (issue 16, items 4, 5 and 6).
let t: TestApp;
let client: BaseAppClient;
let email: string;
beforeAll(async () => {
  t = await createTestApp();
  const user = await baseAppUser(t, 'contract-wallet@example.com');
  client = user.client;
  email = user.email;
});
afterAll(() => t.close());

/** The newest beneficiary activation pin mailed to the user, from the dev outbox (shown once). */
async function emailedPin(): Promise<string> {
  const [mail] = await outbox(t, email);
  const pin = mail?.template === 'beneficiary_pin' ? mail.secret : null;
  if (!pin) throw new Error('no pin mailed');
  return pin;
}

describe('deposit address', () => {
  it("item 4: carries Peatio's currencies array next to the address", async () => {
    const res = await client.peatio('GET', '/account/deposit_address/trx');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.currencies).toEqual(['trx']);
    expect(typeof body.address).toBe('string');
    expect(body.address.length).toBeGreaterThan(20);
    expect(body).toMatchObject({ state: 'active', blockchain_key: 'tron-sim' });
  });

  it('is in the account of GET /account/balances, as BaseApp rebuilds its wallets from there', async () => {
    const { address } = (await client.peatio('GET', '/account/deposit_address/trx')).json();
    const before = (await client.peatio('GET', '/account/balances')).json();
    const account = (id: string) => before.find((b: { currency: string }) => b.currency === id);
    expect(account('trx').deposit_address).toEqual({
      currencies: ['trx'],
      blockchain_key: 'tron-sim',
      address,
      state: 'active',
    });
    // A currency with a network but no address handed out yet: null, and reading balances creates none.
    const none = before.find(
      (b: { currency: string; deposit_address?: unknown }) =>
        b.currency !== 'trx' && b.deposit_address === null,
    );
    expect(none).toBeDefined();
    const again = (await client.peatio('GET', '/account/balances')).json();
    expect(again.find((b: { currency: string }) => b.currency === none.currency).deposit_address).toBeNull();
    // Fiat has no network: no deposit_address at all, as Peatio's entity leaves it out for fiat.
    expect(account('eur')).toBeDefined();
    expect(account('eur')).not.toHaveProperty('deposit_address');
    // Another user's balances never show this address.
    const other = await baseAppUser(t, 'contract-wallet-other@example.com');
    const theirs = (await other.client.peatio('GET', '/account/balances')).json();
    expect(JSON.stringify(theirs)).not.toContain(address);
  });
});

describe('beneficiaries as BaseApp adds, resends and activates them', () => {
  it('item 5: takes data as a JSON string (no network: the default one), PATCH resend_pin, then activates', async () => {
    const address = externalAddress('tron');
    const created = await client.peatio(
      'POST',
      '/account/beneficiaries',
      { currency: 'trx', name: 'Cold wallet', data: JSON.stringify({ address }) },
      { csrf: true },
    );
    expect(created.statusCode, created.body).toBe(201);
    const beneficiary = created.json();
    expect(beneficiary).toMatchObject({ currency: 'trx', name: 'Cold wallet', state: 'pending' });
    expect(beneficiary.data.address).toBe(address);
    expect(typeof beneficiary.id).toBe('number');

    // The resend limit is one a minute: the app's clock moves past it (the pin itself lasts 10 minutes).
    t.clock.advance(61_000);
    const mails = async () =>
      (await t.db.pool.query('select count(*)::int as n from mail_outbox where recipient = $1', [email]))
        .rows[0].n as number;
    const before = await mails();
    const resent = await client.peatio(
      'PATCH',
      `/account/beneficiaries/${beneficiary.id}/resend_pin`,
      {},
      {
        csrf: true,
      },
    );
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await mails()).toBe(before + 1);
    const pin = await emailedPin();

    const activated = await client.peatio(
      'PATCH',
      `/account/beneficiaries/${beneficiary.id}/activate`,
      { id: beneficiary.id, pin },
      { csrf: true },
    );
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({ id: beneficiary.id, state: 'active' });
  });

  it('item 5: a data string that is not JSON is refused as a missing address', async () => {
    const res = await client.peatio(
      'POST',
      '/account/beneficiaries',
      { currency: 'trx', name: 'Broken', data: '{address:' },
      { csrf: true },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: ['account.beneficiary.missing_address'] });
  });
});

describe('currencies as BaseApp reads them', () => {
  it('item 6: top-level fields from the default network, and Peatio 3 names inside networks', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/currencies' })).json();
    const trx = list.find((c: { id: string }) => c.id === 'trx');
    const [network] = trx.networks;
    expect(trx).toMatchObject({
      withdraw_fee: network.withdraw_fee,
      min_withdraw_amount: network.min_withdraw_amount,
      min_deposit_amount: network.min_deposit_amount,
      explorer_transaction: network.explorer_transaction ?? '',
      explorer_address: network.explorer_address ?? '',
      deposit_enabled: true,
      withdrawal_enabled: true,
    });
    expect(typeof trx.withdraw_fee).toBe('string');
    expect(typeof trx.explorer_transaction).toBe('string');
    for (const currency of list) {
      expect(typeof currency.deposit_enabled, currency.id).toBe('boolean');
      expect(typeof currency.withdrawal_enabled, currency.id).toBe('boolean');
      for (const n of currency.networks) {
        expect(n).toMatchObject({
          blockchain_key: expect.any(String),
          withdrawal_enabled: n.withdraw_enabled,
        });
        expect(typeof n.deposit_enabled).toBe('boolean');
      }
    }
  });
});
