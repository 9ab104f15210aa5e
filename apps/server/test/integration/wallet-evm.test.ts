import { describe, expect, it } from 'vitest';
import type { EvmDevnet } from '../../src/adapters/chains/evm/devnet.ts';
import type { ChainPort } from '../../src/adapters/chains/port.ts';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { externalAddress, walletSuite } from '../support/wallet.ts';

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;

const w = walletSuite({ EVM_DEVNET: 'true' });
const { member, call, balance, totp, credit, emailedPin } = w;
/** The app's in-process Hardhat devnet(). */
const devnet = (): EvmDevnet => {
  if (!w.t.deps.wallet.evmDevnet) throw new Error('no eth-devnet');
  return w.t.deps.wallet.evmDevnet;
};
const chain = (): ChainPort => {
  const network = w.t.deps.wallet.chains.get('eth-devnet');
  if (!network) throw new Error('no eth-devnet');
  return network.chain;
};
const mine = async (blocks: number) => {
  await devnet().mine(blocks);
  await w.t.deps.wallet.tick();
};

describe('deposits on the Hardhat devnet', () => {
  it('credits ETH and USDT-ERC20 once after 30 confirmations; a fake USDT is never credited', async () => {
    const ann = await member('ann@evm.test');
    const address = (await call(ann, 'GET', '/account/deposit_address/eth?blockchain_key=eth-devnet')).json()
      .address;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(
      (await call(ann, 'GET', '/account/deposit_address/usdt?blockchain_key=eth-devnet')).json().address,
    ).toBe(address);
    await devnet().faucet(address, 'eth', 2n * ETH);
    await devnet().faucet(address, 'usdt', 250n * USDT);
    const fake = await devnet().deployToken('Tether USD', 'USDT');
    await devnet().mintToken(fake, address, 1_000n * USDT);
    await w.t.deps.wallet.tick();
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
    await w.t.db.pool.query(`delete from chain_blocks where blockchain_key = 'eth-devnet'`);
    await w.t.deps.wallet.tick();
    expect(balance(ann, 'usdt').balance).toBe(250n * USDT);
    const rows = await w.t.db.pool.query(`select count(*)::int as n from deposits where user_id = $1`, [
      ann.id,
    ]);
    expect(rows.rows[0].n).toBe(2);
  });
});

describe('withdrawals on the Hardhat devnet', () => {
  it('broadcasts USDT from the hot wallet, confirms, and the ledger is exact', async () => {
    const network = w.t.deps.wallet.chains.get('eth-devnet');
    if (!network) throw new Error('no eth-devnet');
    const hot = await hotWallet(w.t.db.pool, network);
    await devnet().faucet(hot.address, 'eth', 1n * ETH);
    await devnet().faucet(hot.address, 'usdt', 10_000n * USDT);

    const bob = await member('bob@evm.test');
    await credit(bob, 'usdt', 100n * USDT);
    const target = externalAddress('evm');
    const created = await call(bob, 'POST', '/account/beneficiaries', {
      name: 'metamask',
      currency: 'usdt',
      blockchain_key: 'eth-devnet',
      data: { address: target.toLowerCase() },
    });
    expect(created.json().data.address).toBe(target);
    const pin = await emailedPin(bob);
    expect(
      (await call(bob, 'PATCH', `/account/beneficiaries/${created.json().id}/activate`, { pin })).statusCode,
    ).toBe(200);

    const res = await call(bob, 'POST', '/account/withdraws', {
      amount: '60',
      otp: await totp(bob),
      beneficiary_id: created.json().id,
      currency: 'usdt',
      blockchain_key: 'eth-devnet',
    });
    expect(res.statusCode).toBe(201);
    await w.t.deps.wallet.tick();
    const [sent] = (await call(bob, 'GET', '/account/withdraws')).json();
    expect(sent.state).toBe('confirming');
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain().balance(target, 'usdt')).toBe(55n * USDT);
    await mine(30);
    const [done] = (await call(bob, 'GET', '/account/withdraws')).json();
    expect(done.state).toBe('succeed');
    expect(balance(bob, 'usdt')).toEqual({ balance: 40n * USDT, locked: 0n });
  });
});
