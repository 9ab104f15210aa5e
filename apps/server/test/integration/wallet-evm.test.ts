import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmDevnet } from '../../src/adapters/chains/evm/devnet.ts';
import type { ChainPort } from '../../src/adapters/chains/port.ts';
import { auditLedger } from '../../src/core/audit.ts';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { freshTotp, type Member, member, peatio } from '../support/wallet.ts';

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;

let t: TestApp;
let devnet: EvmDevnet;
let chain: ChainPort;

const call = (who: Member, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  peatio(t, who, method, url, payload);
const balance = (who: Member, currency: string) => t.deps.core.sequencer.state.balance(who.id, currency);
const mine = async (blocks: number) => {
  await devnet.mine(blocks);
  await t.deps.wallet.tick();
};

beforeAll(async () => {
  t = await createTestApp({}, { EVM_DEVNET: 'true' });
  const network = t.deps.wallet.chains.get('eth-devnet');
  if (!network || !t.deps.wallet.evmDevnet) throw new Error('no eth-devnet');
  devnet = t.deps.wallet.evmDevnet;
  chain = network.chain;
});
afterAll(async () => {
  expect(await auditLedger(t.db.pool)).toEqual([]);
  await t.close();
});

describe('deposits on the Hardhat devnet', () => {
  it('credits ETH and USDT-ERC20 once after 30 confirmations; a fake USDT is never credited', async () => {
    const ann = await member(t, 'ann@evm.test');
    const address = (await call(ann, 'GET', '/account/deposit_address/eth?blockchain_key=eth-devnet')).json()
      .address;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(
      (await call(ann, 'GET', '/account/deposit_address/usdt?blockchain_key=eth-devnet')).json().address,
    ).toBe(address);
    await devnet.faucet(address, 'eth', 2n * ETH);
    await devnet.faucet(address, 'usdt', 250n * USDT);
    const fake = await devnet.deployToken('Tether USD', 'USDT');
    await devnet.mintToken(fake, address, 1_000n * USDT);
    await t.deps.wallet.tick();
    const pending = (await call(ann, 'GET', '/account/deposits')).json();
    expect(
      pending.map((d: { currency: string; amount: string; state: string }) => [
        d.currency,
        d.amount,
        d.state,
      ]),
    ).toEqual([
      ['usdt', '250', 'submitted'],
      ['eth', '2', 'submitted'],
    ]);
    expect(balance(ann, 'usdt').balance).toBe(0n);
    await mine(30);
    expect(balance(ann, 'eth').balance).toBe(2n * ETH);
    expect(balance(ann, 'usdt').balance).toBe(250n * USDT);
    // Re-scanning the whole chain credits nothing twice.
    await t.db.pool.query(`delete from chain_blocks where blockchain_key = 'eth-devnet'`);
    await t.deps.wallet.tick();
    expect(balance(ann, 'usdt').balance).toBe(250n * USDT);
    const rows = await t.db.pool.query(`select count(*)::int as n from deposits where user_id = $1`, [
      ann.id,
    ]);
    expect(rows.rows[0].n).toBe(2);
  });
});

describe('withdrawals on the Hardhat devnet', () => {
  it('broadcasts USDT from the hot wallet, confirms, and the ledger is exact', async () => {
    const network = t.deps.wallet.chains.get('eth-devnet');
    if (!network) throw new Error('no eth-devnet');
    const hot = await hotWallet(t.db.pool, t.deps.keys, network);
    await devnet.faucet(hot.address, 'eth', 1n * ETH);
    await devnet.faucet(hot.address, 'usdt', 10_000n * USDT);

    const bob = await member(t, 'bob@evm.test');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: bob.id,
      currency: 'usdt',
      amount: 100n * USDT,
      kind: 'deposit',
    });
    const target = (await chain.createAddress()).address;
    const created = await call(bob, 'POST', '/account/beneficiaries', {
      name: 'metamask',
      currency: 'usdt',
      blockchain_key: 'eth-devnet',
      data: { address: target.toLowerCase() },
    });
    expect(created.json().data.address).toBe(target);
    const mail = await t.db.pool.query(
      'select body from mail_outbox where recipient = $1 order by id desc limit 1',
      [bob.email],
    );
    const pin = /Use (\d{6})/.exec(mail.rows[0].body)?.[1];
    expect(
      (await call(bob, 'PATCH', `/account/beneficiaries/${created.json().id}/activate`, { pin })).statusCode,
    ).toBe(200);

    const res = await call(bob, 'POST', '/account/withdraws', {
      amount: '60',
      otp: await freshTotp(t, bob),
      beneficiary_id: created.json().id,
      currency: 'usdt',
      blockchain_key: 'eth-devnet',
    });
    expect(res.statusCode).toBe(201);
    await t.deps.wallet.tick();
    const [sent] = (await call(bob, 'GET', '/account/withdraws')).json();
    expect(sent.state).toBe('confirming');
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balance(target, 'usdt')).toBe(55n * USDT);
    await mine(30);
    const [done] = (await call(bob, 'GET', '/account/withdraws')).json();
    expect(done.state).toBe('succeed');
    expect(balance(bob, 'usdt')).toEqual({ balance: 40n * USDT, locked: 0n });
  });
});
