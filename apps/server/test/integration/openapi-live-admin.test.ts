import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import { auditLedger } from '../../src/core/audit.ts';
import type { RecordedResponse } from '../../src/http/response-recorder.ts';
import { transactionMonitor } from '../../src/modules/compliance/monitoring/monitor.ts';
import { sanctionsCommand } from '../../src/modules/compliance/sanctions/cli.ts';
import { DEMO_SANCTIONS_LIST } from '../../src/modules/compliance/sanctions/import.ts';
import { SanctionsScreening } from '../../src/modules/compliance/sanctions/screening.ts';
import type { TestApp } from '../support/app.ts';
import { deliverBankCredit } from '../support/bank.ts';
import { JPEG, PASSPORT_APPLICATION, PNG, uniqueIdNo } from '../support/card.ts';
import { outbox } from '../support/identity.ts';
import { kycHarness, PROFILE } from '../support/kyc.ts';
import { checkAnswers, documents, recordingApp, uncovered } from '../support/openapi-live.ts';
import { adminCall, asStaff, type Person, stepUp } from '../support/staff.ts';
import { externalAddress, freshTotp, type Member, member, peatio } from '../support/wallet.ts';

// Issue 30: every operation of the operator console answered for real, and every answer checked against the
// admin document with ajv.
let t: TestApp;
let base: string;
let answers: RecordedResponse[];
let boss: Person;
let second: Person;
let customer: Member & { uid: string };
const kyc = kycHarness(() => ({ t, base }));
const admin = (p: Person, method: string, url: string, body?: unknown) =>
  adminCall(t, method, url, p.headers, body);
const ok = (res: { statusCode: number; body: string }, status = 200) =>
  expect(res.statusCode, res.body).toBe(status);
const reason = { reason: 'Checked with the customer' };

beforeAll(async () => {
  // A withdrawal to a just-saved address waits for review (the queue the console works through).
  ({ t, answers } = await recordingApp({ WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '24' }));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const staff = async (email: string) => {
    const p = await asStaff(t, (await member(t, email)).id, 'superadmin');
    await stepUp(t, p);
    return p;
  };
  boss = await staff('boss@admindocs.test');
  second = await staff('second@admindocs.test');
  const who = await member(t, 'customer@admindocs.test');
  customer = {
    ...who,
    uid: (await t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0].uid,
  };
});
afterAll(async () => {
  expect(await auditLedger(t.db.pool)).toEqual([]);
  await t.close();
});

describe('the admin document, answered live', () => {
  it('users: search, detail, lock, unlock, two-factor reset and sessions', async () => {
    ok(await admin(boss, 'GET', '/me'));
    ok(await admin(boss, 'GET', '/users?q=admindocs'));
    ok(await admin(boss, 'GET', `/users/${customer.uid}`));
    ok(await admin(boss, 'POST', `/users/${customer.uid}/lock`, reason));
    ok(await admin(boss, 'POST', `/users/${customer.uid}/unlock`, reason));
    const other = await member(t, 'reset@admindocs.test');
    const otherUid = (await t.db.pool.query('select uid from users where id = $1', [other.id])).rows[0].uid;
    ok(await admin(boss, 'POST', `/users/${otherUid}/reset_2fa`, reason));
    ok(await admin(boss, 'DELETE', `/users/${otherUid}/sessions`));
    ok(await admin(boss, 'GET', '/actions'));
  });

  it('identity and card holder reviews, with the documents', async () => {
    const applicant = await kyc.signedIn('applicant@admindocs.test');
    ok(await kyc.call('POST', '/resource/profiles', applicant.session, PROFILE), 201);
    expect((await kyc.submitOnPage(await kyc.widgetToken(applicant.session))).status).toBeLessThan(400);
    const queue = await admin(boss, 'GET', '/kyc');
    ok(queue);
    const entry = queue.json().find((q: { uid: string }) => q.uid === applicant.uid);
    ok(await admin(boss, 'GET', `/kyc/${applicant.uid}/documents/${entry.documents[0].id}`));
    ok(await admin(boss, 'POST', `/kyc/${applicant.uid}/review`, { decision: 'approve', ...reason }));

    const holder = await member(t, 'holder@admindocs.test');
    await t.db.pool.query(
      `insert into profiles (user_id, first_name, last_name, country) values ($1, 'Carla', 'Holder', 'AT')`,
      [holder.id],
    );
    const holderUid = (await t.db.pool.query('select uid from users where id = $1', [holder.id])).rows[0].uid;
    ok(
      await peatio(t, holder, 'POST', '/account/cardholder', {
        ...PASSPORT_APPLICATION,
        id_no: uniqueIdNo(),
      }),
      201,
    );
    for (const [doc, image, type] of [
      ['passport', JPEG, 'image/jpeg'],
      ['selfie', PNG, 'image/png'],
    ] as const) {
      const form = multipart([
        { name: 'doc_type', value: doc },
        { name: 'document_data', fileName: 'image', contentType: type, value: image },
      ]);
      ok(
        await t.app.inject({
          method: 'POST',
          url: '/api/v2/peatio/account/upload_document',
          headers: { ...holder.headers, 'content-type': form.contentType },
          payload: form.body,
        }),
        201,
      );
    }
    ok(await peatio(t, holder, 'POST', '/account/cardholder_document'), 201);
    const holders = await admin(boss, 'GET', '/card_holders');
    ok(holders);
    const pending = holders.json().find((h: { uid: string }) => h.uid === holderUid);
    ok(await admin(boss, 'GET', `/card_holders/${holderUid}/documents/${pending.documents[0].id}`));
    ok(await admin(boss, 'POST', `/card_holders/${holderUid}/review`, { decision: 'approve', ...reason }));
  });

  it('adjustments by four eyes, withdrawals reviewed and resolved, limits', async () => {
    const body = { uid: customer.uid, currency: 'trx', amount: '500', reason: 'Goodwill credit' };
    const proposed = await admin(boss, 'POST', '/adjustments', body);
    ok(proposed, 201);
    ok(await admin(second, 'POST', `/adjustments/${proposed.json().id}/approve`, {}));
    const rejected = await admin(boss, 'POST', '/adjustments', { ...body, amount: '1' });
    ok(await admin(second, 'POST', `/adjustments/${rejected.json().id}/reject`, reason));
    ok(await admin(boss, 'GET', '/adjustments'));

    // The customer's sessions ended with the lock: a new member withdraws.
    const payer = await member(t, 'payer@admindocs.test');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: payer.id,
      currency: 'trx',
      amount: 500_000_000n,
      kind: 'deposit',
    });
    const saved = await peatio(t, payer, 'POST', '/account/beneficiaries', {
      name: 'Cold',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: externalAddress('tron') },
    });
    ok(saved, 201);
    const [pin] = await outbox(t, payer.email);
    ok(
      await peatio(t, payer, 'PATCH', `/account/beneficiaries/${saved.json().id}/activate`, {
        pin: pin?.secret,
      }),
    );
    const withdraw = async () => {
      const res = await peatio(t, payer, 'POST', '/account/withdraws', {
        amount: '20',
        otp: await freshTotp(t, payer),
        beneficiary_id: saved.json().id,
        currency: 'trx',
      });
      ok(res, 201);
      return res.json().id as number;
    };
    const approved = await withdraw();
    const refused = await withdraw();
    const errored = await withdraw();
    ok(await admin(boss, 'GET', '/withdrawals'));
    // The closure queue (issue 31, part 4): the four filters.
    for (const state of ['open', 'for_conversion', 'closed', 'all'])
      ok(await admin(boss, 'GET', `/closures?state=${state}`));
    ok(await admin(boss, 'POST', `/withdrawals/${approved}/approve`, {}));
    ok(await admin(boss, 'POST', `/withdrawals/${refused}/reject`, reason));
    await t.db.pool.query(`update withdrawals set state = 'errored', error = 'timeout' where id = $1`, [
      errored,
    ]);
    ok(await admin(boss, 'POST', `/withdrawals/${errored}/resolve`, { decision: 'failed' }));
    ok(
      await admin(boss, 'PUT', '/withdraw_limits', {
        level: 3,
        currency: 'trx',
        per_withdrawal: '1000',
        per_day: null,
      }),
    );
    ok(await admin(boss, 'GET', '/withdraw_limits'));
  });

  it('the bank transfers no reference matched: credit one, return one', async () => {
    for (const amount of ['12.00', '13.00'])
      ok(await deliverBankCredit(t, { amount, remittance: 'invoice 7' }));
    const queue = await admin(boss, 'GET', '/bank_transfers');
    ok(queue);
    const [first, second] = queue.json() as { id: number }[];
    ok(await admin(boss, 'POST', `/bank_transfers/${first?.id}/assign`, { uid: customer.uid, ...reason }));
    ok(await admin(boss, 'POST', `/bank_transfers/${second?.id}/return`, reason));
  });

  it('markets, networks, health, metrics, the ledger, statements, solvency and custody', async () => {
    ok(await admin(boss, 'GET', '/markets'));
    const market = {
      id: 'btctrx',
      base_unit: 'btc',
      quote_unit: 'trx',
      amount_precision: 4,
      price_precision: 2,
      min_price: '0.01',
      max_price: '0',
      min_amount: '0.0001',
      maker_fee: '0.001',
      taker_fee: '0.002',
    };
    ok(await admin(boss, 'POST', '/markets', market), 201);
    ok(await admin(boss, 'POST', '/markets/btctrx', { state: 'disabled' }));
    ok(await admin(boss, 'GET', '/networks'));
    ok(await admin(boss, 'POST', '/networks/trx/tron-sim', { withdraw_fee: '1.5' }));
    ok(await admin(boss, 'GET', '/health'));
    ok(await admin(boss, 'GET', '/metrics'));
    ok(await admin(boss, 'GET', '/ledger'));
    ok(await admin(boss, 'GET', '/ledger.csv'));
    ok(await admin(boss, 'GET', `/users/${customer.uid}/statement?currency=trx`));
    ok(await admin(boss, 'GET', `/users/${customer.uid}/statement.csv?currency=trx`));
    ok(await admin(boss, 'GET', '/solvency'));
    ok(await admin(boss, 'GET', '/solvency.csv'));
    ok(await admin(boss, 'POST', '/solvency/snapshots'), 201);
    ok(await admin(boss, 'GET', '/custody'));
    ok(
      await admin(boss, 'PUT', '/custody/limits', {
        blockchain_key: 'tron-sim',
        currency: 'trx',
        hot_min: '1',
        hot_max: null,
      }),
    );
    const alert = await t.db.pool.query(
      `insert into chain_alerts (blockchain_key, kind, detail) values ('tron-sim', 'hot_wallet_low', '{}') returning id`,
    );
    ok(await admin(boss, 'POST', `/custody/alerts/${alert.rows[0].id}/resolve`));
    ok(await t.app.inject({ method: 'GET', url: '/api/v2/admin/swagger' }));
  });

  it('sanctions screening: the list, the hits, a decision', async () => {
    ok(await admin(boss, 'GET', '/sanctions/list'));
    expect(
      await sanctionsCommand(
        ['sanctions', 'import', fileURLToPath(DEMO_SANCTIONS_LIST)],
        t.db.pool,
        t.deps.config,
      ),
    ).toBe(0);
    ok(await admin(boss, 'GET', '/sanctions/list'));
    const listed = await member(t, 'listed@admindocs.test');
    await t.db.pool.query(
      `insert into profiles (user_id, first_name, last_name, country) values ($1, 'Marta', 'Nonez Ficticia', 'ES')`,
      [listed.id],
    );
    await new SanctionsScreening(t.db.pool, 88, { warn: () => {} }, t.deps.clock).drainQueue();
    const hits = await admin(boss, 'GET', '/sanctions/hits');
    ok(hits);
    const hit = hits.json().find((h: { email: string }) => h.email === 'listed@admindocs.test');
    ok(await admin(boss, 'POST', `/sanctions/hits/${hit.id}/decide`, { decision: 'confirmed', ...reason }));
  });

  it('transaction monitoring: alerts, false positive, report, suspension, export, risk classes', async () => {
    const suspect = await member(t, 'suspect@admindocs.test');
    const uid = (await t.db.pool.query('select uid from users where id = $1', [suspect.id])).rows[0].uid;
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: suspect.id,
      currency: 'trx',
      amount: 100_000_000n,
      kind: 'deposit',
    });
    const saved = await peatio(t, suspect, 'POST', '/account/beneficiaries', {
      name: 'Fresh',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: externalAddress('tron') },
    });
    const [pin] = await outbox(t, suspect.email);
    ok(
      await peatio(t, suspect, 'PATCH', `/account/beneficiaries/${saved.json().id}/activate`, {
        pin: pin?.secret,
      }),
    );
    const pending = await peatio(t, suspect, 'POST', '/account/withdraws', {
      amount: '20',
      otp: await freshTotp(t, suspect),
      beneficiary_id: saved.json().id,
      currency: 'trx',
    });
    ok(pending, 201);
    // Two EUR 15,000 transfers assigned to the suspect: two single-operation alerts.
    for (const remittance of ['large 1', 'large 2'])
      ok(await deliverBankCredit(t, { amount: '15000.00', remittance }));
    const queued = (await admin(boss, 'GET', '/bank_transfers')).json() as { id: number }[];
    for (const q of queued)
      ok(
        await admin(boss, 'POST', `/bank_transfers/${q.id}/assign`, {
          uid,
          reason: 'Assigned by payer name',
        }),
      );
    await transactionMonitor({
      db: t.db.pool,
      core: t.deps.core,
      clock: t.clock,
      config: t.deps.config,
      log: console,
    }).scan();
    const alerts = await admin(boss, 'GET', '/monitoring/alerts');
    ok(alerts);
    const mine = (alerts.json() as { id: number; uid: string }[]).filter((a) => a.uid === uid);
    expect(mine).toHaveLength(2);
    const [falsePositive, suspicious] = mine;
    ok(await admin(boss, 'POST', `/monitoring/alerts/${falsePositive?.id}/close`, reason));
    const report = await admin(boss, 'POST', `/monitoring/alerts/${suspicious?.id}/escalate`, {
      narrative: 'Unexplained large transfers',
    });
    ok(report, 201);
    const id = report.json().id as number;
    ok(await admin(boss, 'GET', `/monitoring/reports/${id}`));
    ok(await admin(boss, 'POST', `/monitoring/reports/${id}/suspend`, { withdrawal_id: pending.json().id }));
    ok(await admin(boss, 'GET', `/monitoring/reports/${id}/export`));
    ok(await admin(boss, 'GET', '/monitoring/risk?overdue=false'));
    ok(await admin(boss, 'PUT', `/monitoring/risk/${uid}`, { class: 'high', reason: 'Reported to the FIU' }));
    // The suspended withdrawal is rejected, so its funds come back before the ledger audit.
    ok(await admin(second, 'POST', `/withdrawals/${pending.json().id}/reject`, reason));
  });

  it('the travel rule: deposits held without originator information, one released, one returned', async () => {
    // Held as the deposit watcher leaves them (no block: the watcher does not look at them again).
    const held = (
      await t.db.pool.query(
        `insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, from_address,
                               travel_rule_status, travel_rule)
         select $1, 'trx', 'tron-sim', 'TAddressOfTheCustomer', 'tx-' || n, 0, 5, 'TSender',
                'held', '{"provider_id":"nordwind","provider_name":"Nordwind","payload":null}'::jsonb
           from generate_series(1, 2) n
         returning id::int`,
        [customer.id],
      )
    ).rows.map((r) => r.id as number);
    ok(await admin(boss, 'GET', '/travel_rule/deposits'));
    ok(await admin(boss, 'POST', `/travel_rule/deposits/${held[0]}/release`, reason));
    ok(await admin(boss, 'POST', `/travel_rule/deposits/${held[1]}/return`, reason));
  });

  it('every answer matches the documents, and every operation was answered with a success', async () => {
    const docs = await documents(t);
    expect(checkAnswers(docs, answers)).toEqual([]);
    expect(uncovered(docs, answers, ['admin'])).toEqual([]);
  });
});
