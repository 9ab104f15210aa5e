import {
  type SolvencyCurrencyEntity,
  type SolvencyProofEntity,
  type SolvencyReportEntity,
  type SolvencySnapshotEntity,
  toUnits,
} from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { leafData, leafHash, verifyProof } from '../../src/modules/custody/merkle.ts';
import { SOLVENCY_CSV_COLUMNS, solvencyReport } from '../../src/modules/custody/solvency.ts';
import { auditSolvency } from '../../src/modules/custody/solvency-audit.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { csvRows, fakeChains } from '../support/solvency.ts';
import { adminCall, type Person, person as personOf, stepUp } from '../support/staff.ts';

/** Proof of solvency (issue #26, custody item 4): holdings read from (fake) chains against the ledger. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { onChain, reads, network, hold } = fakeChains();
/** The seeded networks (their keys exist in `blockchains`), each with its currencies and their precisions. */
const NETWORKS = [
  network('btc-sim', { btc: 8 }),
  network('eth-devnet', { eth: 18, usdt: 6 }),
  network('tron-sim', { usdt: 6, trx: 6 }),
];

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
    reads.count = 0;
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
    // Each (address, currency) was read once (Bitcoin: 4 addresses × 1 currency; Ethereum: 3 × 2; TRON: 2 × 2),
    // never more than 8 at a time.
    expect(reads.count).toBe(14);
    expect(reads.maxInFlight).toBeLessThanOrEqual(8);
    expect(reads.maxInFlight).toBeGreaterThan(1);
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

const call = (method: string, url: string, headers: Record<string, string> = {}) =>
  adminCall(t, method, url, headers);
const proof = (who: { headers: Record<string, string> } | null, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/v2/peatio/account/solvency/proof${query}`,
    headers: who?.headers ?? {},
  });

describe('the console and the customer', () => {
  it('refuses the console routes without a session (401) and to customers and other roles (403)', async () => {
    const support = await personOf(t, 'support@solvency.test', 'support');
    for (const [method, url] of [
      ['GET', '/solvency'],
      ['GET', '/solvency.csv'],
      ['POST', '/solvency/snapshots'],
    ] as const) {
      expect((await call(method, url)).statusCode, url).toBe(401);
      for (const who of [alice, support]) {
        const res = await call(method, url, who.headers);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ errors: ['admin.forbidden'] });
      }
      expect((await call(method, url, accountant.headers)).json()).toEqual({
        errors: ['admin.step_up_required'],
      });
    }
  });

  it('answers 404 for a proof before any snapshot, and 401 without a session', async () => {
    expect((await proof(null)).statusCode).toBe(401);
    const res = await proof(alice);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: ['solvency.snapshot.not_found'] });
  });

  it('shows the report to accountants, read from the wallet registry, and the same rows as CSV', async () => {
    vi.spyOn(t.deps.wallet.chains, 'all').mockReturnValue(NETWORKS);
    await stepUp(t, accountant);
    const res = await call('GET', '/solvency', accountant.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store, private');
    const report = res.json() as SolvencyReportEntity;
    expect(byCurrency(report, 'btc')).toMatchObject({ on_chain: '2.7', solvent: true });
    expect(report.snapshot).toBeNull();
    const csv = await call('GET', '/solvency.csv', accountant.headers);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="solvency-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = csvRows(csv.body);
    expect(header).toEqual([...SOLVENCY_CSV_COLUMNS]);
    expect(rows.map((r) => r[0])).toEqual(report.currencies.map((c) => c.currency));
    const row = (currency: string) =>
      Object.fromEntries((rows.find((r) => r[0] === currency) ?? []).map((v, i) => [header?.[i], v]));
    expect(row('btc')).toEqual({
      currency: 'btc',
      type: 'coin',
      on_chain: '2.7',
      deposit: '1.2',
      hot: '1',
      cold: '0.5',
      liabilities: '2.7',
      available: '1.9',
      orders: '0.5',
      withdrawals: '0.3',
      card: '0',
      surplus: '0',
      solvent: 'true',
      note: '',
    });
    expect(row('eur')).toMatchObject({
      type: 'fiat',
      on_chain: '',
      liabilities: '5',
      solvent: '',
      note: 'fiat: held at the bank, not on a chain',
    });
  });

  let snapshot: SolvencySnapshotEntity;

  it('publishes a Merkle snapshot whose leaves sum to the liabilities, in the staff trail', async () => {
    const res = await call('POST', '/solvency/snapshots', accountant.headers);
    expect(res.statusCode, res.body).toBe(201);
    snapshot = res.json() as SolvencySnapshotEntity;
    expect(snapshot.root).toMatch(/^[0-9a-f]{64}$/);
    // Alice, Bob and Carol have balance rows (the staff accounts here have none).
    expect(snapshot.leaf_count).toBe(3);
    expect(snapshot.totals).toEqual({ btc: '2.7', eur: '5', usdt: '1000' });
    const trail = await t.db.pool.query(
      `select action, target, after from staff_actions where staff_id = $1 and action = 'solvency.snapshot'`,
      [accountant.id],
    );
    expect(trail.rows).toEqual([
      {
        action: 'solvency.snapshot',
        target: `solvency_snapshot:${snapshot.id}`,
        after: { root: snapshot.root, leaf_count: 3 },
      },
    ]);
    const report = (await call('GET', '/solvency', accountant.headers)).json() as SolvencyReportEntity;
    expect(report.snapshot).toEqual(snapshot);
  });

  it('gives every customer their own proof, which verifies; a changed balance or salt does not', async () => {
    const expected = new Map([
      [alice.uid, { btc: '2' }],
      [bob.uid, { btc: '0.7', usdt: '1000' }],
      [carol.uid, { eur: '5' }],
    ]);
    const salts = new Set<string>();
    for (const who of [alice, bob, carol]) {
      // Nothing in the request can name another account: a uid or user id in the query is not read.
      const res = await proof(who, `?uid=${alice.uid}&user_id=${alice.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store, private');
      const p = res.json() as SolvencyProofEntity;
      expect(p).toMatchObject({
        snapshot_id: snapshot.id,
        created_at: snapshot.created_at,
        root: snapshot.root,
        leaf_count: 3,
        uid: who.uid,
        balances: expected.get(who.uid),
      });
      // What a customer does with it: rebuild the leaf from the documented encoding and walk the path.
      expect(p.leaf_data).toBe(leafData(who.uid, p.salt, p.balances));
      expect(leafHash(p.leaf_data)).toBe(p.leaf);
      expect(verifyProof(p.leaf, p.path, p.root)).toBe(true);
      const first = Object.keys(p.balances)[0] as string;
      const changed = { ...p.balances, [first]: `${p.balances[first]}1` };
      expect(verifyProof(leafHash(leafData(who.uid, p.salt, changed)), p.path, p.root)).toBe(false);
      const otherSalt = `${p.salt.slice(0, 63)}${p.salt.endsWith('0') ? '1' : '0'}`;
      expect(verifyProof(leafHash(leafData(who.uid, otherSalt, p.balances)), p.path, p.root)).toBe(false);
      salts.add(p.salt);
    }
    expect(salts.size).toBe(3);
  });

  it('keeps a proof on its snapshot when balances change, and names an older snapshot on request', async () => {
    const submit = t.deps.core.sequencer.submit.bind(t.deps.core.sequencer);
    await submit({
      type: 'Credit',
      user: alice.id,
      currency: 'btc',
      amount: toUnits('1', 8),
      kind: 'deposit',
    });
    const next = (
      await call('POST', '/solvency/snapshots', accountant.headers)
    ).json() as SolvencySnapshotEntity;
    expect(next.root).not.toBe(snapshot.root);
    expect(next.totals.btc).toBe('3.7');
    const latest = (await proof(alice)).json() as SolvencyProofEntity;
    expect(latest).toMatchObject({ snapshot_id: next.id, balances: { btc: '3' } });
    const older = (await proof(alice, `?snapshot_id=${snapshot.id}`)).json() as SolvencyProofEntity;
    expect(older).toMatchObject({ snapshot_id: snapshot.id, root: snapshot.root, balances: { btc: '2' } });
    expect(verifyProof(older.leaf, older.path, snapshot.root)).toBe(true);
    // A new snapshot, a new salt: leaves cannot be followed from one snapshot to the next.
    expect(latest.salt).not.toBe(older.salt);
    expect((await proof(alice, '?snapshot_id=999999')).json()).toEqual({
      errors: ['solvency.snapshot.not_found'],
    });
    expect((await proof(alice, '?snapshot_id=abc')).json()).toEqual({
      errors: ['solvency.snapshot.invalid_id'],
    });
    // The accountant has no balance row: no leaf.
    expect((await proof(accountant)).json()).toEqual({ errors: ['solvency.proof.not_in_snapshot'] });
  });

  it('keeps published snapshots as they are: the app may not rewrite them', async () => {
    for (const sql of [
      `update solvency_snapshots set root = repeat('0', 64)`,
      'delete from solvency_nodes',
      `update solvency_leaves set balances = ''`,
    ])
      await expect(t.db.pool.query(sql), sql).rejects.toThrow(/permission denied/);
  });
});
