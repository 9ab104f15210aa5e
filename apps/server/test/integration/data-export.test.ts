import { createHmac } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';
import { nextIp } from '../support/identity.ts';

// Issue 31, part 5: "Your data", a ZIP of the user's own data, once a day, asked by a raw client.
let t: TestApp;
type Trader = { id: number; email: string; headers: Record<string, string> };
let alice: Trader;
let bob: Trader;
const EXPORT = '/api/v2/barong/resource/users/export';

async function trader(email: string, credits: Record<string, bigint>): Promise<Trader> {
  const id = await plainUser(t.db.pool, email);
  for (const [currency, amount] of Object.entries(credits))
    await t.deps.core.sequencer.submit({ type: 'Credit', user: id, currency, amount, kind: 'deposit' });
  return { id, email, headers: await sessionFor(t.deps.sessions, id) };
}
const order = (who: Trader, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v2/peatio/market/orders', headers: who.headers, payload: body });
const download = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: EXPORT, headers, remoteAddress: nextIp() });
/** The archive's files as text. */
const files = (body: Buffer) =>
  Object.fromEntries(
    Object.entries(unzipSync(new Uint8Array(body))).map(([name, data]) => [name, strFromU8(data)]),
  );
const exportsOf = async (who: Trader) =>
  (await t.db.pool.query('select * from data_exports where user_id = $1 order by id', [who.id])).rows;

beforeAll(async () => {
  t = await createTestApp();
  alice = await trader('alice@export.test', { eth: 10n * 10n ** 18n });
  bob = await trader('bob@export.test', { btc: 2n * 10n ** 8n });
});
afterAll(() => t.close());

describe('GET /resource/users/export', () => {
  it('needs a session: none is 401, an API key 403, a page of another site 403; none of them counts', async () => {
    const none = await download();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ errors: ['authz.invalid_session'] });

    const { kid, secret } = await apiKeyFor(t.db.pool, alice.email);
    const nonce = String(Date.now());
    const signature = createHmac('sha256', secret).update(`${nonce}${kid}`).digest('hex');
    const keyed = await download({
      'x-auth-apikey': kid,
      'x-auth-nonce': nonce,
      'x-auth-signature': signature,
    });
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json()).toEqual({ errors: ['authz.session_required'] });

    const foreign = await download({ ...alice.headers, 'sec-fetch-site': 'cross-site' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ errors: ['authz.origin_not_allowed'] });
    // A HEAD would spend the day's export for nothing: there is none.
    expect((await t.app.inject({ method: 'HEAD', url: EXPORT, headers: alice.headers })).statusCode).toBe(
      405,
    );
    expect(await exportsOf(alice)).toEqual([]);
  });

  it("streams a ZIP of the user's own data as CSV and JSON, never another user's, never a secret", async () => {
    const sell = await order(alice, {
      market: 'ethbtc',
      side: 'sell',
      volume: '2',
      price: '0.05',
      ord_type: 'limit',
    });
    expect(sell.statusCode).toBe(201);
    const buy = await order(bob, {
      market: 'ethbtc',
      side: 'buy',
      volume: '0.5',
      price: '0.05',
      ord_type: 'limit',
    });
    expect(buy.statusCode).toBe(201);
    const other = await order(bob, {
      market: 'ethbtc',
      side: 'buy',
      volume: '1',
      price: '0.01',
      ord_type: 'limit',
    });
    expect(other.statusCode).toBe(201);

    // A digest and a two-factor secret as the app stores them, to look for in the file.
    await t.db.pool.query(
      `update users set password_digest = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo' where id = $1`,
      [alice.id],
    );
    const res = await download({ ...alice.headers, 'user-agent': 'export-test' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['cache-control']).toBe('no-store, private');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="exchange-data-ID[0-9A-F]{10}-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const zip = files(res.rawPayload);
    const tables = ['security-log', 'balances', 'orders', 'trades', 'deposits', 'withdrawals', 'adjustments'];
    for (const name of [...tables, 'swaps', 'beneficiaries', 'api-keys', 'card-statements']) {
      expect(zip, name).toHaveProperty(`${name}.csv`);
      expect(zip, name).toHaveProperty(`${name}.json`);
    }
    for (const name of [
      'README.txt',
      'profile.json',
      'account.csv',
      'labels.csv',
      'phones.csv',
      'profiles.csv',
    ])
      expect(zip).toHaveProperty(name);

    expect(JSON.parse(zip['profile.json'] ?? '')).toMatchObject({ email: alice.email, state: 'active' });
    const orders = JSON.parse(zip['orders.json'] ?? '') as {
      uuid: string;
      price: string;
      origin_volume: string;
    }[];
    expect(orders.map((o) => o.uuid)).toEqual([sell.json().uuid]);
    expect(orders[0]).toMatchObject({ price: '0.05', origin_volume: '2.0', executed_volume: '0.5' });
    const trades = JSON.parse(zip['trades.json'] ?? '') as Record<string, unknown>[];
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      side: 'sell',
      price: '0.05',
      amount: '0.5',
      total: '0.025',
      market: 'ethbtc',
    });
    expect(String(trades[0]?.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(zip['trades.csv']?.split('\r\n')[0]).toBe(
      'id,created_at,market,side,price,amount,total,fee,fee_amount,fee_currency,order_id,taker_type',
    );
    expect(zip['orders.csv']).toContain(sell.json().uuid);
    const deposits = JSON.parse(zip['deposits.json'] ?? '') as { currency: string; amount: string }[];
    expect(deposits).toEqual([]);
    const balances = JSON.parse(zip['balances.json'] ?? '') as { currency: string; balance: string }[];
    expect(balances.find((b) => b.currency === 'eth')).toMatchObject({ balance: '8', locked: '1.5' });
    const keys = JSON.parse(zip['api-keys.json'] ?? '') as Record<string, unknown>[];
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0] ?? {}).sort()).toEqual([
      'algorithm',
      'allowed_ips',
      'created_at',
      'kid',
      'state',
      'updated_at',
    ]);
    const log = JSON.parse(zip['security-log.json'] ?? '') as {
      action: string;
      topic: string;
      user_agent: string;
    }[];
    expect(log.at(-1)).toMatchObject({
      action: 'data_export',
      topic: 'data_export',
      user_agent: 'export-test',
    });

    // Nothing of Bob's, and no secret of Alice's, anywhere in the archive.
    const everything = Object.values(zip).join('\n');
    const user = (await t.db.pool.query('select * from users where id = $1', [alice.id])).rows[0];
    const key = (await t.db.pool.query('select secret_enc from api_keys where user_id = $1', [alice.id]))
      .rows[0];
    const session = alice.headers.cookie?.split('=')[1] ?? '';
    for (const secret of [
      bob.email,
      buy.json().uuid,
      other.json().uuid,
      user.password_digest,
      user.otp_secret_enc,
    ])
      expect(everything).not.toContain(secret);
    for (const secret of [key.secret_enc, session, alice.headers['x-csrf-token'] ?? ''])
      expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/password_digest|otp_secret|secret_enc/);

    // The export is recorded with its size once the reader has it all.
    await vi.waitFor(async () => {
      const [row] = await exportsOf(alice);
      expect(Number(row.bytes)).toBe(res.rawPayload.length);
      expect(row.finished_at).not.toBeNull();
    });
  });

  it('refuses a second export the same day with 429, the code and when it is possible again', async () => {
    const [first] = await exportsOf(alice);
    const again = await download(alice.headers);
    expect(again.statusCode).toBe(429);
    const body = again.json();
    expect(body.errors).toEqual(['resource.user.export_limit']);
    expect(Date.parse(body.next_at)).toBe(first.created_at.getTime() + 86_400_000);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(86_000);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    expect(await exportsOf(alice)).toHaveLength(1);

    // Bob's day is his own, and his file has his orders, none of Alice's.
    const bobs = await download(bob.headers);
    expect(bobs.statusCode).toBe(200);
    const zip = files(bobs.rawPayload);
    const uuids = (JSON.parse(zip['orders.json'] ?? '') as { uuid: string }[]).map((o) => o.uuid);
    expect(uuids).toHaveLength(2);
    expect(Object.values(zip).join('\n')).not.toContain(alice.email);

    // A day later it is possible again.
    await t.db.pool.query(
      `update data_exports set created_at = created_at - interval '24 hours 1 second' where user_id = $1`,
      [alice.id],
    );
    expect((await download(alice.headers)).statusCode).toBe(200);
  });

  it('an export the server could not finish does not count, and the log says it failed', async () => {
    const carol = await trader('carol@export.test', { eth: 10n ** 18n });
    expect(
      (await order(carol, { market: 'ethbtc', side: 'sell', volume: '1', price: '0.09', ord_type: 'limit' }))
        .statusCode,
    ).toBe(201);
    const broken = vi.spyOn(t.deps.core.units, 'market').mockImplementation(() => {
      throw new Error('units unavailable');
    });
    try {
      const res = await download(carol.headers).catch((err: Error) => err);
      // The answer had begun (200), then broke off: never a whole archive.
      if (!(res instanceof Error)) expect(() => unzipSync(new Uint8Array(res.rawPayload))).toThrow();
    } finally {
      broken.mockRestore();
    }
    await vi.waitFor(async () => {
      const [row] = await exportsOf(carol);
      expect(row.failed_at).not.toBeNull();
    });
    const actions = await t.db.pool.query(
      `select result, data->>'reason' as reason from activities where user_id = $1 and action = 'data_export' order by id`,
      [carol.id],
    );
    expect(actions.rows).toEqual([
      { result: 'succeed', reason: null },
      { result: 'failed', reason: 'server' },
    ]);
    const retry = await download(carol.headers);
    expect(retry.statusCode).toBe(200);
    expect(Object.keys(files(retry.rawPayload))).toContain('orders.json');
  });

  it("includes bank withdrawals and deposits, mass payouts, the company and the closure: the owner's only, no document bytes", async () => {
    const dora = await trader('dora@export.test', {});
    const eve = await trader('eve@export.test', {});
    // Rows of each new part for both, each marked with its owner's name, as the modules write them.
    for (const [who, tag] of [
      [dora, 'dora'],
      [eve, 'eve'],
    ] as const) {
      const q = (sql: string, values: unknown[]) => t.db.pool.query(sql, values);
      await q(
        `insert into fiat_withdrawals (user_id, currency_id, amount, fee, iban, holder, state)
         values ($1, 'eur', 120.5, 1, $2, $3, 'succeed')`,
        [who.id, `DE89370400440532013${tag === 'dora' ? '000' : '999'}`, `holder-${tag}`],
      );
      await q(
        `insert into bank_transfers (bank_transaction_id, amount, currency, debtor_name, debtor_iban, end_to_end_id,
                                     booking_date, state, user_id, creditor_reference)
         values ($2, 250.25, 'EUR', $3, 'DE02120300000000202051', $4, '2026-11-02', 'credited', $1, 'RF18539007547034')`,
        [who.id, `banktx-${tag}`, `debtor-${tag}`, `e2e-${tag}`],
      );
      const file = await q(
        `insert into payout_files (user_id, sha256, file_name, row_count) values ($1, sha256($2::bytea), $3, 1)
         returning id`,
        [who.id, Buffer.from(tag), `payouts-${tag}.csv`],
      );
      await q(
        `insert into payout_rows (file_id, line, currency_id, blockchain_key, recipient, amount, fee, reference)
         values ($1, 2, 'trx', 'tron-sim', $2, 12.5, 1, $3)`,
        [file.rows[0].id, `friend-${tag}@export.test`, `ref-${tag}`],
      );
      const company = await q(
        `insert into companies (user_id, name, registration_number, country, address) values ($1, $2, $3, 'DEU', 'Street 1')
         returning id`,
        [who.id, `company-${tag}`, `HRB-${tag}`],
      );
      await q(
        `insert into company_representatives (company_id, position, name, role, ownership) values ($1, 1, $2, 'ubo', 60)`,
        [company.rows[0].id, `representative-${tag}`],
      );
      await q(
        `insert into company_documents (company_id, doc_type, issued_on, file_name, mime_type, size_bytes, content_sealed)
         values ($1, 'register_extract', '2026-10-01', $2, 'application/pdf', 14, $3)`,
        [company.rows[0].id, `extract-${tag}.pdf`, Buffer.from(`DOCUMENT-BYTES-${tag}`)],
      );
      await q(`insert into account_closures (user_id, state, canceled_at) values ($1, 'canceled', now())`, [
        who.id,
      ]);
    }

    const res = await download(dora.headers);
    expect(res.statusCode, res.body).toBe(200);
    const zip = files(res.rawPayload);
    const json = (name: string) => JSON.parse(zip[`${name}.json`] ?? 'null') as Record<string, unknown>[];
    for (const name of [
      'fiat-withdrawals',
      'bank-deposits',
      'payout-files',
      'payout-rows',
      'company',
      'company-representatives',
      'company-documents',
      'account-closure',
    ]) {
      expect(zip, name).toHaveProperty(`${name}.csv`);
      expect(json(name), name).toHaveLength(1);
    }
    expect(json('fiat-withdrawals')[0]).toMatchObject({
      currency: 'eur',
      amount: '120.5',
      fee: '1',
      holder: 'holder-dora',
      state: 'succeed',
    });
    expect(json('bank-deposits')[0]).toMatchObject({
      bank_transaction_id: 'banktx-dora',
      amount: '250.25',
      currency: 'eur',
      debtor_name: 'debtor-dora',
      booking_date: '2026-11-02',
      state: 'credited',
    });
    expect(json('payout-files')[0]).toMatchObject({ file_name: 'payouts-dora.csv', row_count: 1 });
    expect(json('payout-rows')[0]).toMatchObject({
      line: 2,
      currency: 'trx',
      recipient: 'friend-dora@export.test',
      amount: '12.5',
      fee: '1',
      reference: 'ref-dora',
    });
    expect(json('company')[0]).toMatchObject({ name: 'company-dora', registration_number: 'HRB-dora' });
    expect(json('company-representatives')).toEqual([
      { position: 1, name: 'representative-dora', role: 'ubo', ownership: '60' },
    ]);
    expect(json('company-documents')[0]).toMatchObject({
      doc_type: 'register_extract',
      issued_on: '2026-10-01',
      file_name: 'extract-dora.pdf',
      size_bytes: 14,
    });
    expect(Object.keys(json('company-documents')[0] ?? {})).not.toContain('content_sealed');
    expect(json('account-closure')[0]).toMatchObject({
      state: 'canceled',
      closed_at: null,
      withdrawal_ids: [],
    });
    expect(zip['company.csv']?.split('\r\n')[1]).toContain('company-dora');
    expect(zip['payout-rows.csv']).toContain('ref-dora');

    // Nothing of Eve's, and no document's bytes (not even Dora's own), anywhere in the archive.
    const everything = Object.values(zip).join('\n');
    for (const theirs of [
      'holder-eve',
      'banktx-eve',
      'payouts-eve',
      'ref-eve',
      'company-eve',
      'representative-eve',
      'extract-eve',
    ])
      expect(everything).not.toContain(theirs);
    expect(everything).not.toContain('DOCUMENT-BYTES');
    expect(zip['README.txt']).toContain('company-documents.*');
  });
});
