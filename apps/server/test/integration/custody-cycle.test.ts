import { formatUnits, toUnits } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { solvencyReport } from '../../src/modules/custody/solvency.ts';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import type { Network } from '../../src/modules/wallet/chains.ts';
import { devTools, externalAddress, walletSuite } from '../support/wallet.ts';

/**
 * The whole custody cycle on each network, through the nodes' own protocols (Bitcoin Core JSON-RPC and the
 * java-tron HTTP API to their simulators, JSON-RPC to a Hardhat node) and the real signer with its policy:
 * a deposit to an address derived from the published xpub, confirmations, the credit, the sweep to the hot wallet
 * (with a gas top-up for tokens), a withdrawal signed for exactly what was approved, and a reorg. The ledger audit
 * is clean after each.
 */
const w = walletSuite({ EVM_DEVNET: 'true' });
const { member, call, balance, totp, emailedPin } = w;

interface Case {
  network: string;
  currency: string;
  kind: 'btc' | 'tron' | 'evm';
  deposit: bigint;
  withdraw: string;
}

const CASES: Case[] = [
  { network: 'btc-sim', currency: 'btc', kind: 'btc', deposit: 50_000_000n, withdraw: '0.2' },
  { network: 'tron-sim', currency: 'trx', kind: 'tron', deposit: 500_000_000n, withdraw: '200' },
  { network: 'tron-sim', currency: 'usdt', kind: 'tron', deposit: 300_000_000n, withdraw: '100' },
  { network: 'eth-devnet', currency: 'eth', kind: 'evm', deposit: 3n * 10n ** 18n, withdraw: '1' },
  { network: 'eth-devnet', currency: 'usdt', kind: 'evm', deposit: 400_000_000n, withdraw: '150' },
];

const networkOf = (key: string): Network => {
  const network = w.t.deps.wallet.chains.get(key);
  if (!network) throw new Error(`no ${key}`);
  return network;
};

/** Mines `blocks` blocks on the network and lets the wallet run a pass. */
async function mine(key: string, blocks: number) {
  await devTools(w.t, key).mine(blocks);
  await w.t.deps.wallet.tick();
}

/** Runs passes (a block each) until `done` holds; the wallet needs a few for a gas top-up and a sweep. */
async function until(key: string, done: () => Promise<boolean>, passes = 8) {
  for (let i = 0; i < passes; i++) {
    if (await done()) return;
    await mine(key, 1);
  }
  expect(await done()).toBe(true);
}

/** The solvency check of `currency`: what our addresses hold on chain covers what customers are owed. */
async function solvent(currency: string) {
  const report = await solvencyReport(w.t.db.pool, w.t.deps.wallet.chains.all());
  const line = report.currencies.find((c) => c.currency === currency);
  expect(line, JSON.stringify(report.currencies)).toMatchObject({ currency, solvent: true });
}

const depositState = async (id: number) =>
  (await w.t.db.pool.query('select state from deposits where id = $1', [id])).rows[0]?.state as string;

/**
 * What a Bitcoin withdrawal paid to `target`, read from the node (the adapter knows only our own outputs) with
 * Bitcoin Core's RPC: the output's index from `getrawtransaction`, its value from `gettxout`, taken from the answer's
 * text so that no float touches it.
 */
async function bitcoinPaid(withdrawalId: number, target: string): Promise<bigint> {
  const { txid, block_height } = (
    await w.t.db.pool.query('select txid, block_height from withdrawals where id = $1', [withdrawalId])
  ).rows[0];
  const url = new URL(
    (await w.t.db.pool.query(`select url from chain_endpoints where blockchain_key = 'btc-sim'`)).rows[0].url,
  );
  const auth = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`);
  url.username = '';
  url.password = '';
  const rpc = async (method: string, params: unknown[]) =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { authorization: `Basic ${auth.toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
      })
    ).text();
  const blockhash = JSON.parse(await rpc('getblockhash', [Number(block_height)])).result;
  const tx = JSON.parse(await rpc('getrawtransaction', [txid, true, blockhash])).result as {
    vout: { n: number; scriptPubKey: { address?: string } }[];
  };
  const output = tx.vout.find((o) => o.scriptPubKey.address === target);
  if (!output) return 0n;
  const value = /"value":\s*([0-9.]+)/.exec(await rpc('gettxout', [txid, output.n]))?.[1];
  return value ? toUnits(value, 8) : 0n;
}

describe('the custody cycle on every network', () => {
  it.each(CASES)('$currency on $network: deposit, credit, sweep, withdrawal', async (c) => {
    const network = networkOf(c.network);
    const dev = devTools(w.t, c.network);
    const precision = network.currencies.get(c.currency) ?? 0;
    const hot = await hotWallet(w.t.db.pool, network);
    const native = network.chain.keyScheme.nativeCurrency;
    // The exchange's own float in the hot wallet, in the native coin: it pays gas (token top-ups, token
    // withdrawals) and the network fees of sweeps, which customers' credits do not carry.
    const float = { eth: 10n ** 18n, trx: 200_000_000n, btc: 1_000_000n }[native] ?? 0n;
    await dev.faucet(hot.address, native, float);
    await mine(c.network, 1);

    const who = await member(`${c.currency}.${c.network}@custody.test`);
    const address = (
      await call(who, 'GET', `/account/deposit_address/${c.currency}?blockchain_key=${c.network}`)
    ).json().address as string;
    await dev.faucet(address, c.currency, c.deposit);
    await mine(c.network, 1);
    const [recorded] = (await call(who, 'GET', `/account/deposits?currency=${c.currency}`)).json();
    expect(recorded).toMatchObject({ state: 'submitted', amount: formatUnits(c.deposit, precision) });
    const hotBefore = await network.chain.balance(hot.address, c.currency);
    await mine(c.network, network.confirmations);
    expect(balance(who, c.currency).balance).toBe(c.deposit);

    // Swept to the hot wallet (tokens after a gas top-up), and on record as a custody transfer.
    await until(c.network, async () => (await depositState(recorded.id)) === 'collected');
    await mine(c.network, 1);
    const sweep = (
      await w.t.db.pool.query(
        `select t.kind, t.state, t.amount::text from custody_transfers t
         join deposits d on d.custody_transfer_id = t.id where d.id = $1`,
        [recorded.id],
      )
    ).rows[0];
    expect(sweep).toMatchObject({ kind: 'sweep', state: 'confirmed' });
    await solvent(c.currency);
    const left = await network.chain.balance(address, c.currency);
    // An ether sweep leaves behind what the node did not burn of the gas it reserved: dust, never more.
    if (c.currency === 'eth') expect(left).toBeLessThan(10n ** 14n);
    else expect(left).toBe(0n);
    expect(await network.chain.balance(hot.address, c.currency)).toBeGreaterThan(hotBefore);
    expect(await auditLedger(w.t.db.pool)).toEqual([]);

    // A withdrawal to someone outside, signed for exactly what was approved.
    const target = externalAddress(c.kind);
    const created = await call(who, 'POST', '/account/beneficiaries', {
      name: 'outside',
      currency: c.currency,
      blockchain_key: c.network,
      data: { address: target },
    });
    expect(created.statusCode, created.body).toBe(201);
    const activated = await call(who, 'PATCH', `/account/beneficiaries/${created.json().id}/activate`, {
      pin: await emailedPin(who),
    });
    expect(activated.statusCode).toBe(200);
    const withdrawal = await call(who, 'POST', '/account/withdraws', {
      amount: c.withdraw,
      otp: await totp(who),
      beneficiary_id: created.json().id,
      currency: c.currency,
      blockchain_key: c.network,
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
    const id = withdrawal.json().id as number;
    await w.t.deps.wallet.tick();
    await until(c.network, async () => {
      const state = (await w.t.db.pool.query('select state, error from withdrawals where id = $1', [id]))
        .rows[0];
      expect(state.error).toBeNull();
      return state.state === 'confirming' || state.state === 'succeed';
    });
    await mine(c.network, network.confirmations);
    const done = (await w.t.db.pool.query('select state from withdrawals where id = $1', [id])).rows[0];
    expect(done.state).toBe('succeed');
    const fee = (
      await w.t.db.pool.query(
        'select withdraw_fee::text as fee from currency_networks where currency_id = $1 and blockchain_key = $2',
        [c.currency, c.network],
      )
    ).rows[0].fee;
    const paid =
      c.kind === 'btc' ? await bitcoinPaid(id, target) : await network.chain.balance(target, c.currency);
    expect(paid).toBe(toUnits(c.withdraw, precision) - toUnits(fee, precision));
    const signed = await w.t.db.pool.query(`select decision from signer_log where reference = $1`, [
      `withdrawal:${id}`,
    ]);
    expect(signed.rows.map((r) => r.decision)).toEqual(['signed']);
    expect(await auditLedger(w.t.db.pool)).toEqual([]);
    await solvent(c.currency);
  });

  it.each(['btc-sim', 'tron-sim', 'eth-devnet'])(
    'a reorg on %s before the threshold cancels the deposit',
    async (key) => {
      const network = networkOf(key);
      const currency = network.chain.keyScheme.nativeCurrency;
      const who = await member(`reorg.${key}@custody.test`);
      const address = (
        await call(who, 'GET', `/account/deposit_address/${currency}?blockchain_key=${key}`)
      ).json().address as string;
      await devTools(w.t, key).faucet(address, currency, 1_000_000n * (currency === 'eth' ? 10n ** 12n : 1n));
      await mine(key, 1);
      const [deposit] = (await call(who, 'GET', `/account/deposits?currency=${currency}`)).json();
      expect(deposit.state).toBe('submitted');
      await devTools(w.t, key).reorg(2, false);
      await w.t.deps.wallet.tick();
      expect(await depositState(deposit.id)).toBe('canceled');
      await mine(key, network.confirmations);
      expect(balance(who, currency).balance).toBe(0n);
    },
  );
});
