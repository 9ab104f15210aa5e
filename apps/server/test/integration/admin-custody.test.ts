import {
  type CustodyNetworkEntity,
  type CustodyViewEntity,
  ADMIN_CUSTODY_ERRORS as E,
  type StaffActionEntity,
} from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import type { Network } from '../../src/modules/wallet/chains.ts';
import { HotWalletTiers } from '../../src/modules/wallet/tiers.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminCall, type Person, person as personOf, stepUp as stepUpOf } from '../support/staff.ts';

/**
 * The custody view of the operator console (issue #26 item 3): the hot wallet read from the chain (the TRON
 * simulator through its HTTP API) against its bounds, the bounds' changes with their refusals and trail, the open
 * alerts and their resolution, our own transfers and the signer's refusals.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  adminCall(t, method, url, headers, payload);

let technical: Person;
let accountant: Person;
let customer: Person;
let network: Network;
let hotAddress: string;

beforeAll(async () => {
  technical = await personOf(t, 'tech@custody.test', 'technical');
  accountant = await personOf(t, 'accountant@custody.test', 'accountant');
  customer = await personOf(t, 'customer@custody.test', 'member');
  await stepUpOf(t, technical);
  await stepUpOf(t, accountant);
  const tron = t.deps.wallet.chains.get('tron-sim');
  if (!tron?.dev) throw new Error('no tron-sim with developer tools');
  network = tron;
  // The hot wallet holds 100 TRX.
  hotAddress = (await hotWallet(t.db.pool, network)).address;
  await tron.dev.faucet(hotAddress, 'trx', 100_000_000n);
  await tron.dev.mine(1);
});

const view = async (who: Person = technical) => {
  const res = await call('GET', '/custody', who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CustodyViewEntity;
};
const tronOf = (v: CustodyViewEntity) =>
  v.networks.find((n) => n.blockchain_key === 'tron-sim') as CustodyNetworkEntity;
const trxOf = (v: CustodyViewEntity) => tronOf(v).currencies.find((c) => c.currency === 'trx');
const limitsRows = async () =>
  (
    await t.db.pool.query(
      `select blockchain_key, currency_id, hot_min::text, hot_max::text from wallet_limits order by 1, 2`,
    )
  ).rows;
const trail = async (action: string) => {
  const res = await call('GET', `/actions?action=${action}`, technical.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StaffActionEntity[];
};
const setLimits = (body: unknown, who: Person = technical) =>
  call('PUT', '/custody/limits', who.headers, body);

describe('the custody view', () => {
  it('lists each network with its hot wallet read from the chain, and no bounds yet', async () => {
    const v = await view();
    expect(v.networks.map((n) => n.blockchain_key)).toEqual(t.deps.wallet.chains.all().map((n) => n.key));
    expect(tronOf(v)).toMatchObject({ hot_address: hotAddress, error: null, cold_address: null });
    expect(trxOf(v)).toEqual({
      currency: 'trx',
      precision: 6,
      balance: '100',
      error: null,
      hot_min: null,
      hot_max: null,
      state: 'ok',
      refill: null,
      excess: null,
    });
    // Accountants read it too (their solvency work), with the same answer.
    expect(trxOf(await view(accountant))).toMatchObject({ balance: '100', state: 'ok' });
  });

  it('shows the exact refill below the minimum and the excess above the maximum', async () => {
    const set = await setLimits({
      blockchain_key: 'tron-sim',
      currency: 'trx',
      hot_min: '150.000001',
      hot_max: '1000',
    });
    expect([set.statusCode, set.json()]).toEqual([
      200,
      { blockchain_key: 'tron-sim', currency: 'trx', hot_min: '150.000001', hot_max: '1000' },
    ]);
    expect(trxOf(await view())).toMatchObject({
      balance: '100',
      hot_min: '150.000001',
      hot_max: '1000',
      state: 'low',
      refill: '50.000001',
      excess: null,
    });

    await setLimits({ blockchain_key: 'tron-sim', currency: 'trx', hot_min: null, hot_max: '40.5' });
    expect(trxOf(await view())).toMatchObject({
      hot_min: null,
      hot_max: '40.5',
      state: 'above_max',
      refill: null,
      excess: '59.5',
    });

    // The trail has both changes, with before and after.
    const changes = await trail('custody.limits.set');
    expect(changes.slice(0, 2).map((a) => [a.staff, a.target, a.before, a.after])).toEqual([
      [
        'tech@custody.test',
        'wallet_limit:tron-sim:trx',
        { blockchain_key: 'tron-sim', currency: 'trx', hot_min: '150.000001', hot_max: '1000' },
        { blockchain_key: 'tron-sim', currency: 'trx', hot_min: null, hot_max: '40.5' },
      ],
      [
        'tech@custody.test',
        'wallet_limit:tron-sim:trx',
        null,
        { blockchain_key: 'tron-sim', currency: 'trx', hot_min: '150.000001', hot_max: '1000' },
      ],
    ]);
  });

  it.each([
    ['min above max', { hot_min: '5', hot_max: '1' }, 422, E.minAboveMax],
    ['more decimals than TRX has (6)', { hot_min: '0.1234567', hot_max: '1' }, 422, E.tooPrecise],
    ['a negative bound', { hot_min: '-1', hot_max: '1' }, 422, E.invalidAmount],
    ['not a number', { hot_min: '1e3', hot_max: null }, 422, E.invalidAmount],
    ['a currency the network does not carry', { currency: 'btc' }, 422, E.currencyNotOnNetwork],
    ['an unknown network', { blockchain_key: 'nowhere-net' }, 404, E.networkNotFound],
  ])('refuses %s with its code and changes nothing', async (_name, change, status, code) => {
    const rows = await limitsRows();
    const trailBefore = (await trail('custody.limits.set')).length;
    const body = { blockchain_key: 'tron-sim', currency: 'trx', hot_min: '1', hot_max: '2', ...change };
    const res = await setLimits(body);
    expect([res.statusCode, res.json()]).toEqual([status, { errors: [code] }]);
    expect(await limitsRows()).toEqual(rows);
    expect((await trail('custody.limits.set')).length).toBe(trailBefore);
  });

  it('refuses visitors, customers and roles without the permission', async () => {
    const body = { blockchain_key: 'tron-sim', currency: 'trx', hot_min: '1', hot_max: '2' };
    expect((await call('GET', '/custody', {})).statusCode).toBe(401);
    expect((await setLimits(body, { ...customer, headers: {} })).statusCode).toBe(401);
    for (const [method, url, payload] of [
      ['GET', '/custody', undefined],
      ['PUT', '/custody/limits', body],
      ['POST', '/custody/alerts/1/resolve', undefined],
    ] as const) {
      const res = await call(method, url, customer.headers, payload);
      expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([
        403,
        { errors: ['admin.forbidden'] },
      ]);
    }
    // Accountants read the view but change no bound (the network settings are the technicians').
    const res = await setLimits(body, accountant);
    expect([res.statusCode, res.json()]).toEqual([403, { errors: ['admin.forbidden'] }]);
  });
});

describe('alerts, transfers and refusals', () => {
  it('lists the hot wallet low alert the wallet raised and resolves it once', async () => {
    await setLimits({ blockchain_key: 'tron-sim', currency: 'trx', hot_min: '120', hot_max: null });
    await new HotWalletTiers(t.db.pool, network, { warn() {} }).tick();
    const alert = (await view()).alerts.find((a) => a.kind === 'hot_wallet_low');
    expect(alert).toMatchObject({
      network: 'tron-sim',
      detail: { currency: 'trx', balance: '100', minimum: '120', refill: '20' },
    });
    const id = alert?.id as number;
    const resolved = await call('POST', `/custody/alerts/${id}/resolve`, technical.headers);
    expect([resolved.statusCode, resolved.json()]).toEqual([200, { resolved: true }]);
    expect((await view()).alerts.map((a) => a.id)).not.toContain(id);
    const again = await call('POST', `/custody/alerts/${id}/resolve`, technical.headers);
    expect([again.statusCode, again.json()]).toEqual([404, { errors: [E.alertNotFound] }]);
    const [entry] = await trail('custody.alert.resolve');
    expect(entry).toMatchObject({ staff: 'tech@custody.test', target: `chain_alert:${id}` });
    expect(entry?.before).toMatchObject({ id, kind: 'hot_wallet_low', detail: { refill: '20' } });
  });

  it('lists our transfers with the explorer link, and the signer refusals', async () => {
    await t.db.ownerPool.query(
      `update blockchains set explorer_transaction = 'https://explorer.test/tx/#{txid}' where key = 'tron-sim'`,
    );
    const q = (sql: string, values: unknown[]) => t.db.pool.query(sql, values);
    await q(
      `insert into custody_transfers (blockchain_key, kind, currency_id, from_addresses, to_address, amount, txid, state)
       values ('tron-sim', 'cold', 'trx', $1, 'Tcold', '59.5', 'abc123', 'confirmed')`,
      [[hotAddress]],
    );
    await q(
      `insert into signer_log (blockchain_key, purpose, reference, decision, reason, currency_id, amount, destination)
       values ('tron-sim', 'cold', null, 'refused', 'not the configured cold address', 'trx', '1', 'Tother'),
              ('tron-sim', 'sweep', null, 'signed', null, 'trx', '2', $1)`,
      [hotAddress],
    );
    const v = await view();
    expect(v.transfers[0]).toMatchObject({
      network: 'tron-sim',
      kind: 'cold',
      currency: 'trx',
      from_addresses: [hotAddress],
      to_address: 'Tcold',
      amount: '59.5',
      txid: 'abc123',
      state: 'confirmed',
      explorer_link: 'https://explorer.test/tx/abc123',
    });
    // Only refusals: what was signed is not listed.
    expect(v.refusals.map((r) => [r.network, r.purpose, r.reason, r.amount, r.destination])).toEqual([
      ['tron-sim', 'cold', 'not the configured cold address', '1', 'Tother'],
    ]);
  });
});
