import { describe, expect, it } from 'vitest';
import { bankDeposit, monitorOf } from '../support/monitoring.ts';
import { adminCall, type Person, person, stepUp } from '../support/staff.ts';
import { type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * Reports to the financial intelligence unit (issue 33 item 2), with raw requests: every report route refuses a
 * request without a session, a customer, support staff and staff about their own account; the report's clock
 * (three business hours) and a suspension (business days) are read on the app's clock set to a Friday evening,
 * the eve of Christmas 2026 and the eve of Epiphany 2027 (Warsaw time, UTC+1 in winter).
 */
const w = walletSuite({ AML_MONITOR_INTERVAL_MS: '0', WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '24' });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let seq = 0;
/** A compliance officer signed in and stepped up on the app's clock as it is now. */
async function officerNow(): Promise<Person> {
  seq += 1;
  const p = await person(w.t, `officer-${seq}@reports.test`, 'compliance');
  await stepUp(w.t, p);
  return p;
}

/** An open `threshold.single` alert about user `id` (an EUR 15,000 bank deposit, then a monitoring pass). */
async function openAlert(id: number): Promise<number> {
  await bankDeposit(w.t, { id }, '15000');
  await monitorOf(w.t).scan();
  const row = (
    await w.t.db.pool.query(
      `select id::int from aml_alerts where user_id = $1 and state = 'open' and rule = 'threshold.single'
       order by id desc limit 1`,
      [id],
    )
  ).rows[0];
  if (!row) throw new Error('no alert');
  return row.id as number;
}

type Report = { id: number; suspicion_at: string; due_at: string; overdue: boolean; suspensions: unknown[] };
async function escalate(by: Person, alert: number): Promise<Report> {
  const res = await adminCall(w.t, 'POST', `/monitoring/alerts/${alert}/escalate`, by.headers, {
    narrative: 'Grounds for suspicion, for the test',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Escalates at the Warsaw-time moment `at` (the app's clock set there); the report and the clock's start. */
async function escalateAt(at: string, alertOf: Member) {
  const alert = await openAlert(alertOf.id);
  const set = new Date(at).getTime();
  w.t.clock.set(set);
  const officer = await officerNow();
  const report = await escalate(officer, alert);
  const suspicion = new Date(report.suspicion_at).getTime();
  // The suspicion is the app's "now": the moment the clock was set, plus the seconds the test took since.
  expect(suspicion - set).toBeGreaterThanOrEqual(0);
  expect(suspicion - set).toBeLessThan(60_000);
  // The alert's decision is stamped with that same moment of the app's clock, not the database's time.
  const decided = await w.t.db.pool.query('select decided_at from aml_alerts where id = $1', [alert]);
  expect(decided.rows[0].decided_at.getTime()).toBe(suspicion);
  return { officer, report, suspicion, due: new Date(report.due_at).getTime() };
}

let customer: Member;
let pending: number;

describe('report routes refuse, with raw requests', () => {
  it('no session (401), a customer, support staff (403 admin.forbidden), staff about their own account', async () => {
    const { who, beneficiary } = await w.withdrawer('reported@reports.test', 100n * TRX);
    customer = who;
    const withdrawal = await w.withdraw(who, beneficiary, '40');
    expect(withdrawal.json()).toMatchObject({ state: 'under_review' });
    pending = withdrawal.json().id as number;

    const officer = await officerNow();
    const colleague = await officerNow();
    const report = await escalate(colleague, await openAlert(customer.id));
    // A report about the officer's own account, escalated by a colleague.
    const own = await escalate(colleague, await openAlert(officer.id));
    const support = await person(w.t, 'support@reports.test', 'support');
    await stepUp(w.t, support);

    const routes = (id: number) =>
      [
        ['GET', `/monitoring/reports/${id}`, undefined],
        ['GET', `/monitoring/reports/${id}/export`, undefined],
        ['GET', `/monitoring/reports/${id}/export?format=xml`, undefined],
        ['POST', `/monitoring/reports/${id}/suspend`, { withdrawal_id: pending, business_days: 1 }],
      ] as const;
    for (const [method, url, body] of routes(report.id)) {
      const anonymous = await adminCall(w.t, method, url, {}, body);
      expect([url, anonymous.statusCode]).toEqual([url, 401]);
      const asCustomer = await adminCall(w.t, method, url, customer.headers, body);
      expect([url, asCustomer.statusCode, asCustomer.json()]).toEqual([
        url,
        403,
        { errors: ['admin.forbidden'] },
      ]);
      const asSupport = await adminCall(w.t, method, url, support.headers, body);
      expect([url, asSupport.statusCode, asSupport.json()]).toEqual([
        url,
        403,
        { errors: ['admin.forbidden'] },
      ]);
      // The same route works for an officer, so the refusals above are about who asks.
      const allowed = await adminCall(w.t, method, url, officer.headers, body);
      expect([url, allowed.statusCode], allowed.body).toEqual([url, 200]);
    }
    for (const [method, url, body] of routes(own.id)) {
      const mine = await adminCall(w.t, method, url, officer.headers, body);
      expect([url, mine.statusCode, mine.json()]).toEqual([url, 403, { errors: ['admin.user.own_account'] }]);
    }
    // The refused suspensions changed nothing: one suspension, the officer's, on the withdrawal.
    const suspensions = await w.t.db.pool.query(
      'select report_id::int from aml_suspensions where withdrawal_id = $1',
      [pending],
    );
    expect(suspensions.rows).toEqual([{ report_id: report.id }]);

    // Risk classes too: read and set only by compliance.
    const uid = (await w.t.db.pool.query('select uid from users where id = $1', [customer.id])).rows[0].uid;
    for (const [method, url, body] of [
      ['GET', '/monitoring/risk', undefined],
      ['PUT', `/monitoring/risk/${uid}`, { class: 'high', reason: 'Not theirs to set' }],
    ] as const) {
      expect((await adminCall(w.t, method, url, {}, body)).statusCode).toBe(401);
      expect((await adminCall(w.t, method, url, customer.headers, body)).statusCode).toBe(403);
      expect((await adminCall(w.t, method, url, support.headers, body)).json()).toEqual({
        errors: ['admin.forbidden'],
      });
    }
  });
});

describe('the report clock (three business hours) and suspensions (business days), on the app clock', () => {
  it('three hours on a Friday evening; across the weekend from 22:00; overdue only after due_at', async () => {
    const subject = await w.member('weekend@reports.test');
    // Friday 4 Dec 2026, 20:59 in Warsaw: three hours end before midnight, on Friday.
    const early = await escalateAt('2026-12-04T19:59:00Z', subject);
    expect(early.due - early.suspicion).toBe(3 * HOUR);
    expect(early.report.due_at.slice(0, 16)).toBe('2026-12-04T22:59');
    // Friday 22:00 in Warsaw: two hours on Friday, the weekend skipped, one on Monday (01:00 Warsaw).
    const late = await escalateAt('2026-12-04T21:00:00Z', subject);
    expect(late.due - late.suspicion).toBe(51 * HOUR);
    expect(late.report.due_at.slice(0, 16)).toBe('2026-12-07T00:00');

    // A second before its deadline the report is not overdue; a second after, it is (read by an officer signed in
    // then: a session does not outlive two days of the app's clock).
    w.t.clock.set(late.due - 2_000);
    const reader = await officerNow();
    const read = async () =>
      (await adminCall(w.t, 'GET', `/monitoring/reports/${late.report.id}`, reader.headers)).json();
    expect(await read()).toMatchObject({ overdue: false });
    w.t.clock.set(late.due + 1_000);
    expect(await read()).toMatchObject({ overdue: true });
  });

  it('across Christmas 2026 (24, 25 December) and the weekend after; a suspension of 10 and of 1 business days', async () => {
    // Wednesday 23 Dec 2026, 22:00 Warsaw: two hours on Wednesday; Thursday 24 and Friday 25 (holidays), Saturday and
    // Sunday skipped; one hour on Monday 28 December.
    const { officer, report, due } = await escalateAt('2026-12-23T21:00:00Z', customer);
    expect(due - new Date(report.suspicion_at).getTime()).toBe(99 * HOUR);
    expect(report.due_at.slice(0, 16)).toBe('2026-12-28T00:00');

    const suspend = async (business_days?: number) => {
      const before = w.t.clock.now();
      const res = await adminCall(w.t, 'POST', `/monitoring/reports/${report.id}/suspend`, officer.headers, {
        withdrawal_id: pending,
        ...(business_days === undefined ? {} : { business_days }),
      });
      const after = w.t.clock.now();
      return { res, before, after };
    };
    const until = (res: Awaited<ReturnType<typeof suspend>>['res']) => {
      const list = res.json().suspensions as { until: string; lifted_at: string | null }[];
      const current = list.filter((s) => s.lifted_at === null);
      expect(current).toHaveLength(1);
      return new Date(current[0]?.until ?? '').getTime();
    };
    // Ten business days (the default and the most): 28-31 Dec, 4-5 Jan, 7-8 Jan, 11-12 Jan 2027 (1 and 6 January
    // are holidays): Tuesday 12 January, 22:00 Warsaw, 20 calendar days on.
    const ten = await suspend();
    expect(ten.res.statusCode, ten.res.body).toBe(200);
    const tenUntil = until(ten.res);
    expect(tenUntil).toBeGreaterThanOrEqual(ten.before + 20 * DAY);
    expect(tenUntil).toBeLessThanOrEqual(ten.after + 20 * DAY);
    expect(new Date(tenUntil).toISOString().slice(0, 16)).toBe('2027-01-12T21:00');
    // One business day from Wednesday evening: Monday 28 December (the holidays and the weekend skipped).
    const one = await suspend(1);
    expect(one.res.statusCode, one.res.body).toBe(200);
    const oneUntil = until(one.res);
    expect(oneUntil).toBeGreaterThanOrEqual(one.before + 5 * DAY);
    expect(oneUntil).toBeLessThanOrEqual(one.after + 5 * DAY);
    // The ten days' suspension it replaced is lifted at the app's time (December 2026), not the database's.
    const lifted = (one.res.json().suspensions as { lifted_at: string | null }[]).flatMap((s) =>
      s.lifted_at === null ? [] : [new Date(s.lifted_at).getTime()],
    );
    expect(lifted).toHaveLength(1);
    expect(lifted[0]).toBeGreaterThanOrEqual(one.before);
    expect(lifted[0]).toBeLessThanOrEqual(one.after);
    // Eleven and zero are out of bounds; nothing changes.
    for (const days of [11, 0]) {
      const refused = await suspend(days);
      expect(refused.res.statusCode, refused.res.body).toBe(422);
    }
    const rows = await w.t.db.pool.query(
      'select count(*)::int as n from aml_suspensions where withdrawal_id = $1 and report_id = $2',
      [pending, report.id],
    );
    expect(rows.rows[0].n).toBe(2);
    // Approved only once the suspension ends on the app's clock: the database's refusal reads the app's time too.
    const approve = async () =>
      adminCall(w.t, 'POST', `/withdrawals/${pending}/approve`, (await officerNow()).headers, {});
    const early = await approve();
    expect([early.statusCode, early.json()]).toEqual([
      409,
      { errors: ['admin.monitoring.withdrawal_suspended'] },
    ]);
    w.t.clock.set(oneUntil + 60_000);
    const ended = await approve();
    expect(ended.statusCode, ended.body).toBe(200);
  });

  it('across Epiphany (Wednesday 6 January 2027), a holiday in the week', async () => {
    const subject = await w.member('epiphany@reports.test');
    // Tuesday 5 Jan 2027, 22:00 Warsaw: two hours on Tuesday, Wednesday skipped, one hour on Thursday.
    const { report, due, suspicion } = await escalateAt('2027-01-05T21:00:00Z', subject);
    expect(due - suspicion).toBe(27 * HOUR);
    expect(report.due_at.slice(0, 16)).toBe('2027-01-07T00:00');
  });
});
