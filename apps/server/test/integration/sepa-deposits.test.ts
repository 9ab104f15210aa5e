import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankWebhookHeaders } from '../../src/adapters/bank/signing.ts';
import { auditLedger } from '../../src/core/audit.ts';
import { validRfReference } from '../../src/modules/bank-deposits/reference.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';
import { adminCall, type Person, person, stepUp } from '../support/staff.ts';

// Issue 31, part 3: EUR by SEPA transfer to the collection account with a per-customer RF reference, credited
// when the bank simulator's signed notification arrives; anything it cannot match waits for an operator.
let t: TestApp;
let base: string;
let sim: { apiUsername: string; apiPassword: string; webhookSecret: string };
type Customer = { id: number; uid: string; headers: Record<string, string> };
let business: Customer;
let personal: Customer;
let lapsed: Customer;
let accountant: Person;
const COLLECTION = 'DE89370400440532013000';
const DEBTOR = 'FR1420041010050500013M02606';
const DEPOSIT = '/api/v2/peatio/account/bank_deposit';
const WEBHOOK = '/api/v2/peatio/bank/notifications';

async function customer(email: string, type: 'business' | 'personal'): Promise<Customer> {
  const id = await plainUser(t.db.pool, email);
  const row = (
    await t.db.pool.query('update users set account_type = $2, level = 3 where id = $1 returning uid', [
      id,
      type,
    ])
  ).rows[0];
  return { id, uid: row.uid, headers: await sessionFor(t.deps.sessions, id) };
}
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const eur = (c: Customer) => t.deps.core.sequencer.state.balance(c.id, 'eur').balance;
const referenceOf = async (c: Customer) => (await get(DEPOSIT, c.headers)).json().reference as string;

/** "Sends" a transfer into the collection account at the simulated bank (its developer endpoint, over HTTP). */
async function send(key: string, body: Record<string, unknown>) {
  const response = await fetch(`${base}/bank-sim/v1/incoming-transfers`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': key,
      authorization: `Basic ${Buffer.from(`${sim.apiUsername}:${sim.apiPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({ debtor_name: 'ACME GmbH', debtor_iban: DEBTOR, ...body }),
  });
  return { status: response.status, entry: (await response.json()) as { transaction_id: string } };
}

/** The exchange's record of a bank transaction, once its notification has arrived and been handled. */
async function handled(transactionId: string) {
  for (let i = 0; i < 100; i++) {
    const row = (
      await t.db.pool.query(
        'select id, state, queue_reason, user_id from bank_transfers where bank_transaction_id = $1',
        [transactionId],
      )
    ).rows[0];
    if (row && row.state !== 'received' && row.state !== 'crediting') return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`bank transaction ${transactionId} was not handled`);
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim = JSON.parse(
    (await t.db.pool.query(`select value from app_secrets where name = 'bank_simulator'`)).rows[0].value,
  );
  business = await customer('owner@sepa.test', 'business');
  personal = await customer('person@sepa.test', 'personal');
  lapsed = await customer('lapsed@sepa.test', 'business');
  accountant = await person(t, 'accountant@sepa.test', 'accountant');
});
afterAll(() => t.close());

describe('GET /account/bank_deposit', () => {
  it('gives a verified business the collection account and its own RF reference, and nobody else one', async () => {
    expect((await get(DEPOSIT)).statusCode).toBe(401);
    const refused = await get(DEPOSIT, personal.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errors: ['account.bank_deposit.business_only'] });
    const ok = await get(DEPOSIT, business.headers);
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body).toMatchObject({ currency: 'eur', method: 'sepa', iban: COLLECTION, bic: 'COBADEFFXXX' });
    expect(body.beneficiary).toBe('Exchange Collection Account');
    expect(validRfReference(body.reference)).toBe(true);
    expect(await referenceOf(business)).toBe(body.reference);
    expect(await referenceOf(lapsed)).not.toBe(body.reference);
    const stored = await t.db.pool.query('select user_id from bank_deposit_references order by user_id');
    expect(stored.rows.map((r) => Number(r.user_id))).toEqual([business.id, lapsed.id]);
  });
});

describe('incoming transfers', () => {
  it('credits a transfer with the reference once, as a deposit only its owner sees', async () => {
    const reference = await referenceOf(business);
    const sent = await send('sepa-test-0001', { amount: '1250.75', creditor_reference: reference });
    expect(sent.status).toBe(201);
    expect(await handled(sent.entry.transaction_id)).toMatchObject({
      state: 'credited',
      user_id: String(business.id),
    });
    expect(eur(business)).toBe(125_075n);
    const history = await get('/api/v2/peatio/account/deposits?currency=eur', business.headers);
    expect(history.json()).toEqual([
      expect.objectContaining({
        currency: 'eur',
        amount: '1250.75',
        state: 'accepted',
        blockchain_key: null,
        txid: sent.entry.transaction_id,
        transaction_type: 'external',
      }),
    ]);
    // Another user sees neither the deposit in a list nor by its transaction id.
    expect((await get('/api/v2/peatio/account/deposits?currency=eur', personal.headers)).json()).toEqual([]);
    const byTxid = await get(
      `/api/v2/peatio/account/deposits/${sent.entry.transaction_id}`,
      personal.headers,
    );
    expect(byTxid.statusCode).toBe(404);

    // The reference typed with spaces in the free text works as well.
    const spaced = reference.replace(/(.{4})/g, '$1 ');
    const again = await send('sepa-test-0002', {
      amount: '0.05',
      remittance_information: `Invoice 77 ${spaced.toLowerCase()}`,
    });
    expect(await handled(again.entry.transaction_id)).toMatchObject({ state: 'credited' });
    expect(eur(business)).toBe(125_080n);
  });

  it('credits a replayed notification or a repeated send once', async () => {
    const reference = await referenceOf(business);
    const sent = await send('sepa-test-0003', { amount: '10.00', creditor_reference: reference });
    await handled(sent.entry.transaction_id);
    const before = eur(business);
    // The same send again (its idempotency key): the bank books nothing new.
    const repeated = await send('sepa-test-0003', { amount: '10.00', creditor_reference: reference });
    expect(repeated.status).toBe(200);
    expect(repeated.entry.transaction_id).toBe(sent.entry.transaction_id);
    // The bank's notification delivered again, freshly signed: answered, credited nothing.
    const payload = (
      await t.db.pool.query(`select payload from banksim_webhooks where payload like $1`, [
        `%${sent.entry.transaction_id}%`,
      ])
    ).rows;
    expect(payload).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const replay = await t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: bankWebhookHeaders(sim.webhookSecret, payload[0].payload),
        payload: payload[0].payload,
      });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ credited: 0, queued: 0, duplicate: 1 });
    }
    expect(eur(business)).toBe(before);
    const deposits = await t.db.pool.query(
      'select count(*)::int as n from deposits d join bank_transfers b on b.id = d.bank_transfer_id where b.bank_transaction_id = $1',
      [sent.entry.transaction_id],
    );
    expect(deposits.rows[0].n).toBe(1);
  });

  it('refuses a notification that is not signed with the secret, or whose signature is stale', async () => {
    const reference = await referenceOf(business);
    const forged = JSON.stringify({
      notification_id: 'NTF-FORGED',
      account: { iban: COLLECTION },
      entries: [
        {
          acct_svcr_ref: 'FORGED-1',
          credit_debit: 'CRDT',
          status: 'BOOK',
          amount: '99999.00',
          currency: 'EUR',
          booking_date: '2026-11-29',
          end_to_end_id: 'NOTPROVIDED',
          debtor: { name: 'Mallory', iban: DEBTOR },
          remittance: { unstructured: null, creditor_reference: reference },
        },
      ],
    });
    const attempts = [
      {},
      bankWebhookHeaders('not-the-secret', forged),
      bankWebhookHeaders(sim.webhookSecret, forged, Date.now() - 3_600_000),
      { ...bankWebhookHeaders(sim.webhookSecret, forged), 'x-bank-signature': 'v1=00' },
    ];
    for (const headers of attempts) {
      const res = await t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: { 'content-type': 'application/json', ...headers },
        payload: forged,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ errors: ['account.bank_deposit.webhook_unauthorized'] });
    }
    // Signed, but the body signed is not the body sent.
    const tampered = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: bankWebhookHeaders(sim.webhookSecret, forged),
      payload: forged.replace('99999.00', '99999.99'),
    });
    expect(tampered.statusCode).toBe(401);
    const recorded = await t.db.pool.query(
      `select 1 from bank_transfers where bank_transaction_id = 'FORGED-1'`,
    );
    expect(recorded.rowCount).toBe(0);
    // And the simulator's own API wants its credentials.
    const anonymous = await fetch(`${base}/bank-sim/v1/incoming-transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'sepa-test-anon' },
      body: JSON.stringify({ amount: '1.00', debtor_name: 'X', debtor_iban: DEBTOR }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('queues a transfer with no reference, a wrong one, or one of an account no longer verified', async () => {
    const before = eur(business);
    const reference = await referenceOf(business);
    // One digit of the reference changed: its check digits no longer hold.
    const typo = reference.slice(0, -1) + (reference.endsWith('2') ? '3' : '2');
    const lapsedReference = await referenceOf(lapsed);
    await t.db.pool.query('update users set level = 2 where id = $1', [lapsed.id]);
    const cases = [
      [{ amount: '5.00' }, 'missing_reference'],
      [{ amount: '6.00', remittance_information: 'for our account please' }, 'missing_reference'],
      [{ amount: '7.00', creditor_reference: typo }, 'unknown_reference'],
      [{ amount: '8.00', creditor_reference: 'RF18539007547034' }, 'unknown_reference'],
      [{ amount: '9.00', creditor_reference: lapsedReference }, 'not_verified'],
    ] as const;
    for (const [i, [body, reason]] of cases.entries()) {
      const sent = await send(`sepa-test-q${i}00000`, body);
      expect(await handled(sent.entry.transaction_id)).toMatchObject({
        state: 'queued',
        queue_reason: reason,
        user_id: null,
      });
    }
    expect(eur(business)).toBe(before);
    expect(eur(lapsed)).toBe(0n);
  });
});

describe('the operator queue', () => {
  it('lists queued transfers to staff with the permission only', async () => {
    expect((await adminCall(t, 'GET', '/bank_transfers', business.headers)).statusCode).toBe(403);
    await stepUp(t, accountant);
    const res = await adminCall(t, 'GET', '/bank_transfers', accountant.headers);
    expect(res.statusCode).toBe(200);
    const items = res.json() as { state: string; queue_reason: string; amount: string }[];
    expect(items.map((i) => [i.amount, i.queue_reason])).toEqual([
      ['5', 'missing_reference'],
      ['6', 'missing_reference'],
      ['7', 'unknown_reference'],
      ['8', 'unknown_reference'],
      ['9', 'not_verified'],
    ]);
  });

  it('assigns a transfer to an account (once), never to the operator’s own, and marks one for return', async () => {
    // Half an hour on, on the app's clock: the decisions and the credit are stamped on it, not the database's.
    t.clock.advance(30 * 60_000);
    const onClock = (at: Date) => expect(Math.abs(at.getTime() - t.clock.now())).toBeLessThan(60_000);
    await stepUp(t, accountant);
    const queue = (await adminCall(t, 'GET', '/bank_transfers', accountant.headers)).json() as {
      id: number;
      amount: string;
    }[];
    const five = queue.find((q) => q.amount === '5');
    const six = queue.find((q) => q.amount === '6');
    if (!five || !six) throw new Error('queue is missing its transfers');
    const own = await adminCall(t, 'POST', `/bank_transfers/${five.id}/assign`, accountant.headers, {
      uid: accountant.uid,
      reason: 'the sender named me',
    });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ errors: ['admin.user.own_account'] });
    expect(eur({ id: accountant.id } as Customer)).toBe(0n);

    const before = eur(business);
    const assigned = await adminCall(t, 'POST', `/bank_transfers/${five.id}/assign`, accountant.headers, {
      uid: business.uid,
      reason: 'debtor IBAN is the company account on file',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({
      state: 'credited',
      uid: business.uid,
      decided_by: accountant.email,
    });
    expect(eur(business)).toBe(before + 500n);
    const stamps = (
      await t.db.pool.query(
        `select t.decided_at, d.credited_at from bank_transfers t join deposits d on d.bank_transfer_id = t.id
          where t.id = $1`,
        [five.id],
      )
    ).rows[0];
    onClock(stamps.decided_at);
    onClock(stamps.credited_at);
    const again = await adminCall(t, 'POST', `/bank_transfers/${five.id}/assign`, accountant.headers, {
      uid: business.uid,
      reason: 'once more',
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ errors: ['admin.bank_transfer.not_queued'] });
    expect(eur(business)).toBe(before + 500n);

    const returned = await adminCall(t, 'POST', `/bank_transfers/${six.id}/return`, accountant.headers, {
      reason: 'unknown sender',
    });
    expect(returned.statusCode).toBe(200);
    expect(returned.json()).toMatchObject({ state: 'returned', uid: null });
    onClock(
      (await t.db.pool.query('select decided_at from bank_transfers where id = $1', [six.id])).rows[0]
        .decided_at,
    );
    const assignReturned = await adminCall(
      t,
      'POST',
      `/bank_transfers/${six.id}/assign`,
      accountant.headers,
      {
        uid: business.uid,
        reason: 'too late',
      },
    );
    expect(assignReturned.statusCode).toBe(422);
    const trail = await t.db.pool.query(
      `select action from staff_actions where action like 'bank_transfer.%' order by id`,
    );
    expect(trail.rows.map((r) => r.action)).toEqual(['bank_transfer.assign', 'bank_transfer.return']);
  });

  it('leaves the ledger audit clean, and the audit would see a transfer credited without its credit', async () => {
    expect(await auditLedger(t.db.pool)).toEqual([]);
    const client = await t.db.pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `insert into bank_transfers (bank_transaction_id, amount, currency, debtor_name, debtor_iban,
           end_to_end_id, booking_date, state, user_id)
         values ('AUDIT-1', 1, 'EUR', 'X', $1, 'NOTPROVIDED', current_date, 'credited', $2)`,
        [DEBTOR, business.id],
      );
      expect(await auditLedger(client)).toEqual([
        expect.objectContaining({ rule: 'bank-deposit-credit', currency: 'eur' }),
      ]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
