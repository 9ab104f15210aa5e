import {
  type SolvencyCurrencyEntity,
  type SolvencyProofEntity,
  type SolvencyReportEntity,
  type SolvencySnapshotEntity,
  toUnits,
} from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChainPort } from '../../src/adapters/chains/port.ts';
import { leafData, leafHash, verifyProof } from '../../src/modules/custody/merkle.ts';
import { SOLVENCY_CSV_COLUMNS, solvencyReport } from '../../src/modules/custody/solvency.ts';
import { auditSolvency } from '../../src/modules/custody/solvency-audit.ts';
import type { Network } from '../../src/modules/wallet/chains.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminCall, type Person, person as personOf, stepUp } from '../support/staff.ts';

/** Proof of solvency (issue #26, custody item 4): holdings read from (fake) chains against the ledger. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What each fake chain says an address holds: `address/currency` → units. */
const onChain = new Map<string, bigint>();
let balanceReads = 0;
let inFlight = 0;
let maxInFlight = 0;

/** A chain that only answers balances (all the report reads), from {@link onChain}; 0 for any other address. */
function fakeChain(key: string): ChainPort {
  const unused = () => {
    throw new Error('not used by the solvency report');
  };
  return {
    key,
    keyScheme: { purpose: 44, coinType: 60, nativeCurrency: 'eth' },
    addressOf: unused,
    latestBlock: unused,
    block: unused,
    normalizeAddress: unused,
    async balance(address, currency) {
      balanceReads++;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      // Let other reads start before this one ends, so the bound on reads in flight is exercised.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return onChain.get(`${address}/${currency}`) ?? 0n;
    },
    send: unused,
    sweep: unused,
    sweepFee: unused,
    transaction: unused,
  };
}

const network = (key: string, currencies: Record<string, number>): Network => ({
  key,
  chain: fakeChain(key),
  dev: null,
  confirmations: 1,
  explorerTransaction: null,
  currencies: new Map(Object.entries(currencies)),
});
/** The seeded networks (their keys exist in `blockchains`), each with its currencies and their precisions. */
const NETWORKS = [
  network('btc-sim', { btc: 8 }),
  network('eth-devnet', { eth: 18, usdt: 6 }),
  network('tron-sim', { usdt: 6, trx: 6 }),
];
const hold = (address: string, currency: string, amount: string, precision: number) =>
  onChain.set(`${address}/${currency}`, toUnits(amount, precision));

let accountant: Person;
let alice: Person;
let bob: Person;
let carol: Person;

beforeAll(async () => {
  accountant = await personOf(t, 'accountant@solvency.test', 'accountant');
  alice = await personOf(t, 'alice@solvency.test', 'member');
  bob = await personOf(t, 'bob@solvency.test', 'member');
  carol = await personOf(t, 'carol@solvency.test', 'member');
  const submit = t.deps.core.sequencer.submit.bind(t.deps.core.sequencer);
  const ok = async (command: Parameters<typeof submit>[0]) =>
    expect(
      (await submit(command)).ok,
      JSON.stringify(command, (_k, v) => String(v)),
    ).toBe(true);
  // Alice: 2 BTC, 0.5 of them in a resting sell order, 0.3 held for a withdrawal not yet settled.
  await ok({ type: 'Credit', user: alice.id, currency: 'btc', amount: toUnits('2', 8), kind: 'deposit' });
  await ok({
    type: 'PlaceOrder',
    user: alice.id,
    market: 'btcusdt',
    side: 'sell',
    ordType: 'limit',
    price: toUnits('90000', 1),
    volume: toUnits('0.5', 5),
  });
  await ok({
    type: 'HoldWithdrawal',
    user: alice.id,
    currency: 'btc',
    amount: toUnits('0.3', 8),
    withdrawalId: 'solvency-w1',
  });
  // Bob: 0.7 BTC and 1000 USDT, 10 of it held for a withdrawal; Carol: 5 EUR (fiat).
  await ok({ type: 'Credit', user: bob.id, currency: 'btc', amount: toUnits('0.7', 8), kind: 'deposit' });
  await ok({ type: 'Credit', user: bob.id, currency: 'usdt', amount: toUnits('1000', 6), kind: 'deposit' });
  await ok({
    type: 'HoldWithdrawal',
    user: bob.id,
    currency: 'usdt',
    amount: toUnits('10', 6),
    withdrawalId: 'solvency-w2',
  });
  await ok({ type: 'Credit', user: carol.id, currency: 'eur', amount: toUnits('5', 2), kind: 'deposit' });

  // Our addresses: two deposit addresses on Bitcoin, a hot wallet and a cold address per network.
  const q = (sql: string, values: unknown[]) => t.db.pool.query(sql, values);
  await q(
    `insert into deposit_addresses (user_id, blockchain_key, address, key_index)
     values ($1, 'btc-sim', 'bc-dep-alice', 0), ($2, 'btc-sim', 'bc-dep-bob', 1), ($2, 'eth-devnet', '0xdepbob', 0)`,
    [alice.id, bob.id],
  );
  for (const [key, hot, cold] of [
    ['btc-sim', 'bc-hot', 'bc-cold'],
    ['eth-devnet', '0xhot', '0xcold'],
    ['tron-sim', 'Thot', 'Tcold'],
  ] as const) {
    await q(
      `insert into hot_wallets (blockchain_key, address) values ($1, $2)
       on conflict (blockchain_key) do update set address = excluded.address`,
      [key, hot],
    );
    await q(
      `insert into cold_wallets (blockchain_key, address) values ($1, $2)
       on conflict (blockchain_key) do update set address = excluded.address`,
      [key, cold],
    );
  }
  // BTC: 1 + 0.2 at deposit addresses, 1 hot, 0.5 cold = 2.7, exactly what Alice and Bob are owed.
  hold('bc-dep-alice', 'btc', '1', 8);
  hold('bc-dep-bob', 'btc', '0.2', 8);
  hold('bc-hot', 'btc', '1', 8);
  hold('bc-cold', 'btc', '0.5', 8);
  // USDT over two networks: 100 at a deposit address and 400 hot on Ethereum, 600 cold on TRON = 1100.
  hold('0xdepbob', 'usdt', '100', 6);
  hold('0xhot', 'usdt', '400', 6);
  hold('Tcold', 'usdt', '600', 6);
  // ETH nobody is owed: 0.000000000000000001 hot.
  onChain.set('0xhot/eth', 1n);
});

const byCurrency = (report: SolvencyReportEntity, currency: string) =>
  report.currencies.find((c) => c.currency === currency) as SolvencyCurrencyEntity;

describe('the solvency report', () => {
  it('sums every tier of every network and counts what customers are owed exactly', async () => {
    const report = await solvencyReport(t.db.pool, NETWORKS);
    expect(byCurrency(report, 'btc')).toEqual({
      currency: 'btc',
      type: 'coin',
      on_chain: '2.7',
      by_tier: { deposit: '1.2', hot: '1', cold: '0.5' },
      by_network: [{ network: 'btc-sim', deposit: '1.2', hot: '1', cold: '0.5', total: '2.7', error: null }],
      // Alice: 1.2 available, 0.5 in the order, 0.3 held; Bob: 0.7 available. The hold is inside locked, once.
      liabilities: { available: '1.9', orders: '0.5', withdrawals: '0.3', card: '0', total: '2.7' },
      surplus: '0',
      solvent: true,
      note: null,
    });
    expect(byCurrency(report, 'usdt')).toMatchObject({
      on_chain: '1100',
      by_tier: { deposit: '100', hot: '400', cold: '600' },
      by_network: [
        { network: 'eth-devnet', deposit: '100', hot: '400', cold: '0', total: '500', error: null },
        { network: 'tron-sim', deposit: '0', hot: '0', cold: '600', total: '600', error: null },
      ],
      liabilities: { available: '990', orders: '0', withdrawals: '10', card: '0', total: '1000' },
      surplus: '100',
      solvent: true,
    });
    expect(byCurrency(report, 'eth')).toMatchObject({
      on_chain: '0.000000000000000001',
      surplus: '0.000000000000000001',
      solvent: true,
    });
    // Fiat is at the bank: listed with what customers are owed, not checked on chain.
    expect(byCurrency(report, 'eur')).toMatchObject({
      type: 'fiat',
      on_chain: null,
      by_tier: null,
      liabilities: { total: '5' },
      surplus: null,
      solvent: null,
    });
    expect(byCurrency(report, 'eur').note).toMatch(/fiat/);
    // Each (address, currency) was read once, never more than 8 at a time.
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(maxInFlight).toBeGreaterThan(1);
  });

  it('says insolvent, with the shortfall, when the chains hold less than is owed; the audit fails', async () => {
    hold('bc-cold', 'btc', '0.4', 8);
    try {
      const report = await solvencyReport(t.db.pool, NETWORKS);
      expect(byCurrency(report, 'btc')).toMatchObject({ on_chain: '2.6', surplus: '-0.1', solvent: false });
      const out: string[] = [];
      const errors: string[] = [];
      const ok = await auditSolvency(t.db.pool, NETWORKS, {
        log: (l) => out.push(l),
        error: (l) => errors.push(l),
      });
      expect(ok).toBe(false);
      expect(errors).toEqual(['btc: INSOLVENT: on chain 2.6 < owed 2.7 (short -0.1)']);
      expect(out.at(-1)).toBe('solvency check FAILED: 1 currency(ies) not covered');
    } finally {
      hold('bc-cold', 'btc', '0.5', 8);
    }
    const out: string[] = [];
    expect(
      await auditSolvency(t.db.pool, NETWORKS, { log: (l) => out.push(l), error: (l) => out.push(l) }),
    ).toBe(true);
    expect(out).toContain('btc: solvent: on chain 2.7 ≥ owed 2.7 (surplus 0)');
    expect(out).toContain('eur: not checked: owed 5 (fiat: held at the bank, not on a chain)');
    expect(out.at(-1)).toMatch(/^solvency check passed/);
  });

  it('does not check a coin whose chain cannot be read, and the audit fails while customers are owed it', async () => {
    const broken = network('btc-sim', { btc: 8 });
    broken.chain.balance = async () => {
      throw new Error('connection refused');
    };
    const report = await solvencyReport(t.db.pool, [broken, ...NETWORKS.slice(1)]);
    expect(byCurrency(report, 'btc')).toMatchObject({ on_chain: null, solvent: null });
    expect(byCurrency(report, 'btc').note).toBe('chain not readable: btc-sim: connection refused');
    expect(byCurrency(report, 'btc').by_network[0]?.error).toBe('connection refused');
    const lines: string[] = [];
    const push = (l: string) => lines.push(l);
    expect(await auditSolvency(t.db.pool, [broken, ...NETWORKS.slice(1)], { log: push, error: push })).toBe(
      false,
    );
    // With no adapters at all (the command line before the lead wires them) the check is skipped, loudly.
    expect(await auditSolvency(t.db.pool, null, { log: push, error: push })).toBe(true);
    expect(lines.at(-1)).toMatch(/SKIPPED/);
  });
});
