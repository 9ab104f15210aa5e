import { addBusinessHours } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { bankDeposit as depositEur, monitorOf } from '../support/monitoring.ts';
import { adminCall, asStaff, type Person, stepUp } from '../support/staff.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * Transaction monitoring (issue 33 item 2) and risk classes (item 1), through the admin API with raw requests:
 * operations valued in exact EUR open alerts at the thresholds; compliance closes one as a false positive or
 * escalates it to a report with the policy's clock, suspends the customer's pending withdrawal (whose approval is
 * then refused) and exports the report; support staff and staff on their own account are refused.
 */
const w = walletSuite({
  AML_MONITOR_INTERVAL_MS: '0',
  AML_HIGH_RISK_COUNTRIES: 'IR,KP',
  WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '24',
  WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: '60',
});
const monitor = () => monitorOf(w.t);

const bankDeposit = (who: { id: number }, amount: string, iban?: string) =>
  depositEur(w.t, who, amount, iban);

type Alert = { id: number; uid: string; email: string; rule: string; eur: string; operation_ids: number[] };
const admin = (p: Person, method: string, url: string, body?: unknown) =>
  adminCall(w.t, method, url, p.headers, body);
async function alertsOf(p: Person, who: Member, state = 'all'): Promise<Alert[]> {
  const res = await admin(p, 'GET', `/monitoring/alerts?state=${state}&limit=1000`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Alert[]).filter((a) => a.email === who.email);
}

let officer: Person | undefined;
async function compliance(): Promise<Person> {
  if (!officer) {
    officer = await asStaff(w.t, (await w.member('officer@monitoring.test')).id, 'compliance');
    await stepUp(w.t, officer);
  }
  return officer;
}

describe('transaction monitoring rules', () => {
  it('opens a single-operation alert at exactly EUR 15,000.00, not one cent below, once', async () => {
    const p = await compliance();
    const at = await w.member('exact@monitoring.test');
    const below = await w.member('below@monitoring.test');
    await bankDeposit(at, '15000.00');
    await bankDeposit(below, '14999.99');
    expect(await monitor().scan()).toBeGreaterThan(0);
    expect(await monitor().scan()).toBe(0); // a second pass opens nothing again
    expect((await alertsOf(p, at)).map((a) => [a.rule, a.eur])).toEqual([['threshold.single', '15000']]);
    expect(await alertsOf(p, below)).toEqual([]);
  });

  it('links operations reaching EUR 15,000 within the window; identification threshold below level 3', async () => {
    const p = await compliance();
    const linked = await w.member('linked@monitoring.test');
    await bankDeposit(linked, '10000');
    await monitor().scan();
    await bankDeposit(linked, '4999.99');
    await monitor().scan();
    expect(await alertsOf(p, linked)).toEqual([]);
    await bankDeposit(linked, '0.01');
    await monitor().scan();
    const [hit] = await alertsOf(p, linked);
    expect(hit).toMatchObject({ rule: 'threshold.linked', eur: '15000' });
    expect(hit?.operation_ids).toHaveLength(3);

    const occasional = await w.member('occasional@monitoring.test', 2);
    await bankDeposit(occasional, '999.99');
    await monitor().scan();
    expect(await alertsOf(p, occasional)).toEqual([]);
    await bankDeposit(occasional, '1000.00');
    await monitor().scan();
    expect((await alertsOf(p, occasional)).map((a) => a.rule)).toEqual(['threshold.identification']);
  });

  it('links an operation exactly AML_LINKED_WINDOW_DAYS (7) before as outside the window, a microsecond later inside', async () => {
    const p = await compliance();
    /** 10,000 then 5,000 EUR, the first moved to `offset` before the second (as SQL interval text). */
    const pair = async (email: string, offset: string) => {
      const who = await w.member(email);
      await bankDeposit(who, '10000');
      await monitor().scan();
      const second = await bankDeposit(who, '5000');
      // The first operation, already valued, is moved back relative to the second's own time (as the monitor reads
      // it: a JavaScript Date, to the millisecond).
      const moved = await w.t.db.pool.query(
        `update aml_operations
         set occurred_at = (select date_trunc('milliseconds', credited_at) from deposits where id = $2) - $3::interval
         where user_id = $1 and source = 'deposit' and source_id <> $2`,
        [who.id, second, offset],
      );
      expect(moved.rowCount).toBe(1);
      await monitor().scan();
      return alertsOf(p, who);
    };
    expect(await pair('outside@monitoring.test', '7 days')).toEqual([]);
    const inside = await pair('inside@monitoring.test', '7 days - 1 microsecond');
    expect(inside.map((a) => [a.rule, a.eur])).toEqual([['threshold.linked', '15000']]);
    expect(inside[0]?.operation_ids).toHaveLength(2);
  });

  it('rapid in-and-out across currencies: EUR in, USDT out within the window, valued in EUR', async () => {
    const p = await compliance();
    const who = await w.member('mule@monitoring.test');
    await bankDeposit(who, '2000.00');
    await monitor().scan();
    expect(await alertsOf(p, who)).toEqual([]);
    // 1,087 USDT at CARD_EUR_PER_USDT 0.92 is EUR 1,000.04: half of the EUR 2,000 that just came in.
    await w.credit(who, 'usdt', 2_000_000_000n);
    const beneficiary = await w.activeBeneficiary(who, externalAddress('tron'), 'usdt');
    const out = await w.call(who, 'POST', '/account/withdraws', {
      amount: '1087',
      otp: await w.totp(who),
      beneficiary_id: beneficiary,
      currency: 'usdt',
      blockchain_key: 'tron-sim',
    });
    expect(out.statusCode, out.body).toBe(201);
    await monitor().scan();
    const [hit] = (await alertsOf(p, who)) as (Alert & { facts: Record<string, unknown> })[];
    expect(hit).toMatchObject({ rule: 'pattern.rapid_in_out', eur: '1000.04' });
    expect(hit?.facts).toMatchObject({ in_eur: '2000', out_eur: '1000.04' });
    // The monitor only alerts: the withdrawal stays where the withdrawal review put it (a just-saved address).
    const id = out.json().id as number;
    const row = (await w.t.db.pool.query('select state from withdrawals where id = $1', [id])).rows[0];
    expect(row.state).toBe('under_review');
    // Rejected (as a decision cut off before the release), its funds come back through the processor.
    const reject = await w.t.db.pool.query(`update withdrawals set state = 'rejected' where id = $1`, [id]);
    expect(reject.rowCount).toBe(1);
    await w.t.deps.wallet.tick();
  });

  it("flags a deposit from a high-risk territory's bank", async () => {
    const p = await compliance();
    const who = await w.member('territory@monitoring.test');
    await bankDeposit(who, '50', 'IR580540105180021273113007');
    await monitor().scan();
    const [hit] = await alertsOf(p, who);
    expect(hit).toMatchObject({ rule: 'territory.high_risk', eur: '50' });
  });
});

describe('alerts in the console', () => {
  it('refuses support staff, a customer and a request without a session', async () => {
    const support = await asStaff(w.t, (await w.member('support@monitoring.test')).id, 'support');
    await stepUp(w.t, support);
    const res = await admin(support, 'GET', '/monitoring/alerts');
    expect([res.statusCode, res.json()]).toEqual([403, { errors: ['admin.forbidden'] }]);
    const customer = await w.member('customer@monitoring.test');
    const asCustomer = await adminCall(w.t, 'GET', '/monitoring/alerts', customer.headers);
    expect(asCustomer.statusCode).toBe(403);
    expect((await adminCall(w.t, 'GET', '/monitoring/alerts')).statusCode).toBe(401);
  });

  it('closes an alert as a false positive with a reason, once; never on the own account', async () => {
    const p = await compliance();
    const who = await w.member('false-positive@monitoring.test');
    await bankDeposit(who, '20000');
    await monitor().scan();
    const [alert] = await alertsOf(p, who, 'open');
    if (!alert) throw new Error('no alert');
    const short = await admin(p, 'POST', `/monitoring/alerts/${alert.id}/close`, { reason: 'no' });
    expect([short.statusCode, short.json()]).toEqual([422, { errors: ['admin.reason_required'] }]);
    const reason = 'Salary of a known employer, documents on file';
    const closed = await admin(p, 'POST', `/monitoring/alerts/${alert.id}/close`, { reason });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ state: 'closed', reason });
    const again = await admin(p, 'POST', `/monitoring/alerts/${alert.id}/close`, { reason });
    expect([again.statusCode, again.json()]).toEqual([422, { errors: ['admin.monitoring.alert_not_open'] }]);
    const trail = await w.t.db.pool.query(
      `select after from staff_actions where action = 'monitoring.alert.close' and staff_id = $1`,
      [p.id],
    );
    expect(trail.rows.at(-1)?.after).toEqual({ state: 'closed', reason });

    // The officer's own account: an alert about it is for a colleague.
    await bankDeposit({ id: p.id }, '15000');
    await monitor().scan();
    const own = (await admin(p, 'GET', '/monitoring/alerts?limit=1000')).json() as Alert[];
    const mine = own.find((a) => a.uid === p.uid);
    if (!mine) throw new Error('no alert on the officer');
    for (const [url, body] of [
      ['close', { reason }],
      ['escalate', { narrative: reason }],
    ] as const) {
      const res = await admin(p, 'POST', `/monitoring/alerts/${mine.id}/${url}`, body);
      expect([res.statusCode, res.json()]).toEqual([403, { errors: ['admin.user.own_account'] }]);
    }
    const risk = await admin(p, 'PUT', `/monitoring/risk/${p.uid}`, { class: 'low', reason: 'my own' });
    expect([risk.statusCode, risk.json()]).toEqual([403, { errors: ['admin.user.own_account'] }]);
  });

  it('escalates to a report due in three business hours, suspends the withdrawal, exports JSON and XML', async () => {
    const p = await compliance();
    const { who, beneficiary } = await w.withdrawer('suspect@monitoring.test', 100n * TRX);
    const withdrawal = await w.withdraw(who, beneficiary, '40');
    expect(withdrawal.json()).toMatchObject({ state: 'under_review' });
    await bankDeposit(who, '15000');
    await monitor().scan();
    const alert = (await alertsOf(p, who, 'open')).find((a) => a.rule === 'threshold.single');
    if (!alert) throw new Error('no alert');
    const risk = (await admin(p, 'GET', '/monitoring/risk')).json() as { email: string; class: string }[];
    expect(risk.find((r) => r.email === who.email)).toMatchObject({
      class: 'average',
      reasons: ['alerts.open'],
    });

    const narrative = 'Large deposit right before a withdrawal to a fresh address';
    const escalated = await admin(p, 'POST', `/monitoring/alerts/${alert.id}/escalate`, { narrative });
    expect(escalated.statusCode, escalated.body).toBe(201);
    const report = escalated.json();
    expect(report.due_at).toBe(addBusinessHours(new Date(report.suspicion_at), 3).toISOString());
    expect(report.overdue).toBe(false);
    const riskAfter = (await admin(p, 'GET', '/monitoring/risk')).json() as { email: string }[];
    expect(riskAfter.find((r) => r.email === who.email)).toMatchObject({ class: 'high' });

    // Someone else's withdrawal is not this report's to hold.
    const other = await w.withdrawer('bystander@monitoring.test', 50n * TRX);
    const otherRes = await w.withdraw(other.who, other.beneficiary, '30');
    expect(otherRes.statusCode, otherRes.body).toBe(201);
    const otherId = otherRes.json().id as number;
    const wrong = await admin(p, 'POST', `/monitoring/reports/${report.id}/suspend`, {
      withdrawal_id: otherId,
    });
    expect([wrong.statusCode, wrong.json()]).toEqual([422, { errors: ['admin.monitoring.not_suspendable'] }]);

    const id = withdrawal.json().id as number;
    const suspended = await admin(p, 'POST', `/monitoring/reports/${report.id}/suspend`, {
      withdrawal_id: id,
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().suspensions).toHaveLength(1);
    const accountant = await asStaff(w.t, (await w.member('accountant@monitoring.test')).id, 'accountant');
    await stepUp(w.t, accountant);
    const approve = await admin(accountant, 'POST', `/withdrawals/${id}/approve`, {});
    expect([approve.statusCode, approve.json()]).toEqual([
      409,
      { errors: ['admin.monitoring.withdrawal_suspended'] },
    ]);
    const row = (await w.t.db.pool.query('select state, review_reasons from withdrawals where id = $1', [id]))
      .rows[0];
    expect(row).toEqual({ state: 'under_review', review_reasons: ['beneficiary.new', 'aml.suspended'] });
    expect(w.balance(who, 'trx')).toEqual({ balance: 60n * TRX, locked: 40n * TRX });

    const json = await admin(p, 'GET', `/monitoring/reports/${report.id}/export`);
    expect(json.statusCode, json.body).toBe(200);
    const data = json.json();
    expect(data.report).toMatchObject({ id: report.id, narrative, due_at: report.due_at });
    expect(data.subject.email).toBe(who.email);
    expect(data.alert).toMatchObject({ rule: 'threshold.single', eur: '15000' });
    expect(data.operations).toEqual([
      expect.objectContaining({ kind: 'deposit', currency: 'eur', eur: '15000' }),
    ]);
    expect(data.suspensions).toEqual([expect.objectContaining({ withdrawal_id: id, lifted_at: null })]);
    const xml = await admin(p, 'GET', `/monitoring/reports/${report.id}/export?format=xml`);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(xml.body).toContain('<suspicious_activity_report>');
    expect(xml.body).toContain('<rule>threshold.single</rule>');

    // Rejecting it stays possible: the funds come back.
    const reject = await admin(accountant, 'POST', `/withdrawals/${id}/reject`, {
      reason: 'Reported to the FIU',
    });
    expect(reject.statusCode, reject.body).toBe(200);
    expect(w.balance(who, 'trx')).toEqual({ balance: 100n * TRX, locked: 0n });
  });

  it('the rules class customers by country, business account and PEP status, which lasts a year after office', async () => {
    // Two days on, on the app's clock, where the PEP year is read (so not on the database's date); the officer
    // signs in again (the cached one's session has idled out).
    w.t.clock.advance(2 * 86_400_000);
    officer = await asStaff(w.t, (await w.member('officer-later@monitoring.test')).id, 'compliance');
    await stepUp(w.t, officer);
    const p = officer;
    const uidOf = async (who: Member) =>
      (await w.t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0].uid as string;
    const iranian = await w.member('resident-ir@monitoring.test');
    await w.t.db.pool.query(
      `insert into profiles (user_id, first_name, last_name, country) values ($1, 'Ali', 'Example', 'IR')`,
      [iranian.id],
    );
    const business = await w.member('business@monitoring.test');
    await w.t.db.pool.query(`update users set account_type = 'business' where id = $1`, [business.id]);
    // Two PEPs set low by staff: one left office a year ago yesterday (still a PEP), one a year ago today (no more).
    const today = (
      await w.t.db.pool.query(
        `select to_char($1::timestamptz at time zone 'Europe/Warsaw', 'YYYY-MM-DD') as today,
           to_char(($1::timestamptz at time zone 'Europe/Warsaw')::date - interval '1 year' + interval '1 day',
             'YYYY-MM-DD') as recent,
           to_char(($1::timestamptz at time zone 'Europe/Warsaw')::date - interval '1 year', 'YYYY-MM-DD') as expired`,
        [new Date(w.t.clock.now())],
      )
    ).rows[0];
    const pepRecent = await w.member('pep-recent@monitoring.test');
    const pepExpired = await w.member('pep-expired@monitoring.test');
    for (const [who, left] of [
      [pepRecent, today.recent],
      [pepExpired, today.expired],
    ] as const) {
      const set = await admin(p, 'PUT', `/monitoring/risk/${await uidOf(who)}`, {
        class: 'low',
        reason: 'Former official, low exposure',
        pep: true,
        pep_left_office: left,
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    // A small ordinary operation of each brings them into a monitoring pass, which reassesses them.
    for (const who of [iranian, business, pepRecent, pepExpired]) await bankDeposit(who, '10');
    await monitor().scan();
    const risk = (await admin(p, 'GET', '/monitoring/risk')).json() as {
      uid: string;
      class: string;
      reasons: string[];
      source: string;
    }[];
    const of = async (who: Member) => {
      const uid = await uidOf(who);
      const row = risk.find((r) => r.uid === uid);
      return row && [row.class, row.reasons, row.source];
    };
    expect(await of(iranian)).toEqual(['high', ['country.high_risk'], 'rules']);
    expect(await of(business)).toEqual(['average', ['business'], 'rules']);
    // The rules raise a staff class for a PEP within the year; a year after leaving office it stays as staff set it.
    expect(await of(pepRecent)).toEqual(['high', ['pep'], 'rules']);
    expect(await of(pepExpired)).toEqual(['low', ['staff'], 'staff']);
  });

  it('compliance sets a risk class with a reason; overdue reviews are listed', async () => {
    const p = await compliance();
    const who = await w.member('pep@monitoring.test');
    const uid = (await w.t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0].uid;
    const set = await admin(p, 'PUT', `/monitoring/risk/${uid}`, {
      class: 'high',
      reason: 'Deputy minister until March',
      pep: true,
      pep_left_office: '2026-03-31',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ class: 'high', source: 'staff', pep: true, overdue: false });
    await w.t.db.pool.query(
      `update aml_risk_profiles set review_due = now() - interval '1 day' where user_id = $1`,
      [who.id],
    );
    const overdue = (await admin(p, 'GET', '/monitoring/risk?overdue=true')).json() as { uid: string }[];
    expect(overdue.map((r) => r.uid)).toContain(uid);
    const trail = await w.t.db.pool.query(
      `select after from staff_actions where action = 'monitoring.risk.set' and target = $1`,
      [uid],
    );
    expect(trail.rows[0]?.after).toMatchObject({ class: 'high', reason: 'Deputy minister until March' });
  });
});
