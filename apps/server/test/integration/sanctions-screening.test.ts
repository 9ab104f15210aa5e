import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanctionsCommand } from '../../src/modules/compliance/sanctions/cli.ts';
import { DEMO_SANCTIONS_LIST } from '../../src/modules/compliance/sanctions/import.ts';
import { SanctionsScreening } from '../../src/modules/compliance/sanctions/screening.ts';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { sessionFor } from '../support/core.ts';
import { adminCall, type Person, person, stepUp } from '../support/staff.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

// Issue 33, item 3: names screened against the imported EU consolidated list; a hit freezes withdrawals and
// transfers out until compliance decides it. Driven with raw requests (no web app), by role.
const w = walletSuite();
const FROZEN = 'account.withdraw.sanctions_review';
const PASSWORD = 'Sanctions-pass1';
const silent = { warn: () => {} };
let screening: SanctionsScreening;
let compliance: Person;
let support: Person;
let dir: string;

const pool = () => w.t.db.pool;
const cli = (...args: string[]) => sanctionsCommand(['sanctions', ...args], pool(), w.t.deps.config);

/** Saves the profile through the product's own route (the trigger queues the name for screening). */
async function saveProfile(who: { headers: Record<string, string> }, first: string, last: string) {
  const res = await w.t.app.inject({
    method: 'PUT',
    url: '/api/v2/barong/resource/profiles',
    headers: who.headers,
    payload: {
      first_name: first,
      last_name: last,
      gender: 'other',
      dob: '1980-02-03',
      address: 'Example street 1',
      postcode: '00001',
      city: 'Example',
      country: 'PL',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function hitsOf(userId: number) {
  return (await pool().query('select * from sanctions_hits where user_id = $1 order by id', [userId])).rows;
}

const transfer = (who: Member, recipient: string) =>
  w.call(who, 'POST', '/account/internal_transfers', {
    currency: 'trx',
    password: PASSWORD,
    recipient,
    amount: '1',
  });

beforeAll(async () => {
  screening = new SanctionsScreening(pool(), w.t.deps.config.sanctionsMatchThreshold, silent, w.t.deps.clock);
  compliance = await person(w.t, 'officer@sanctions.test', 'compliance');
  support = await person(w.t, 'support@sanctions.test', 'support');
  await stepUp(w.t, compliance);
  await stepUp(w.t, support);
  dir = await mkdtemp(join(tmpdir(), 'sanctions-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('sanctions screening', () => {
  it('imports the demo list through the CLI command, keeping the date, hash and counts', async () => {
    expect(await cli('import', fileURLToPath(DEMO_SANCTIONS_LIST))).toBe(0);
    const list = (await pool().query('select * from sanctions_lists where current')).rows[0];
    expect(list).toMatchObject({
      file_name: 'demo-list.xml',
      generated_at: '2026-11-01T10:00:00.000+01:00',
      entity_count: 5,
      name_count: 8,
    });
    const { createHash } = await import('node:crypto');
    expect(list.file_sha256).toBe(
      createHash('sha256')
        .update(await readFile(DEMO_SANCTIONS_LIST))
        .digest('hex'),
    );
    // A file that is not a list changes nothing.
    const bad = join(dir, 'bad.xml');
    await writeFile(bad, '<html><body>not a list</body></html>');
    expect(await cli('import', bad)).toBe(1);
    expect((await pool().query('select id from sanctions_lists where current')).rows[0].id).toBe(list.id);
  });

  it('freezes withdrawals and transfers of a customer whose name matches, until compliance clears it', async () => {
    const { who, beneficiary } = await w.withdrawer('fiktivenko@sanctions.test', 50n * TRX);
    const clean = await w.withdrawer('clean@sanctions.test', 50n * TRX);
    await pool().query('update users set password_digest = $2 where id = $1', [
      who.id,
      await hashPassword(PASSWORD),
    ]);
    // A new password ends the sessions: a new one.
    who.headers = await sessionFor(w.t.deps.sessions, who.id);
    // Word order, case and a transliteration differ from the list's "Borislav Fictivenko".
    await saveProfile(who, 'FIKTIVENKO', 'Borislav');
    await saveProfile(clean.who, 'Anna', 'Kowalska');
    await screening.drainQueue();
    const [hit] = await hitsOf(who.id);
    expect(hit).toMatchObject({
      subject_kind: 'customer',
      subject_name: 'FIKTIVENKO Borislav',
      entry_logical_id: '900101',
      entry_reference: 'EU.DEMO.1',
      state: 'open',
    });
    expect(hit.score).toBeGreaterThanOrEqual(88);
    expect(await hitsOf(clean.who.id)).toEqual([]);

    const refused = await w.withdraw(who, beneficiary, '12');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors).toEqual([FROZEN]);
    const refusedTransfer = await transfer(who, 'clean@sanctions.test');
    expect(refusedTransfer.statusCode).toBe(403);
    expect(refusedTransfer.json().errors).toEqual([FROZEN]);
    await w.credit(who, 'eur', 500n * 100n);
    const refusedPayout = await w.call(who, 'POST', '/account/fiats/withdraws', {
      currency: 'eur',
      amount: '100',
      iban: 'DE89370400440532013000',
      holder: 'Borislav Fiktivenko',
      otp: await w.totp(who),
    });
    expect(refusedPayout.statusCode).toBe(403);
    expect(refusedPayout.json().errors).toEqual([FROZEN]);
    expect(w.balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    expect(w.balance(who, 'eur')).toEqual({ balance: 500n * 100n, locked: 0n });
    const allowed = await w.withdraw(clean.who, clean.beneficiary, '12');
    expect(allowed.statusCode, allowed.body).toBe(201);

    // The console: compliance sees the hit with what matched; support neither sees nor decides it.
    const listed = await adminCall(w.t, 'GET', '/sanctions/hits', compliance.headers);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({
        id: Number(hit.id),
        email: 'fiktivenko@sanctions.test',
        subject_name: 'FIKTIVENKO Borislav',
        // The Cyrillic name transliterates exactly to what the customer typed ("Fiktivenko"): the best match.
        entry_name: 'Борислав Фиктивенко',
        entry_subject_type: 'person',
        entry_regulation: 'DEMO 2026/9001 (OJ L 1)',
        score: hit.score,
      }),
    );
    for (const [method, url, body] of [
      ['GET', '/sanctions/hits', undefined],
      ['POST', `/sanctions/hits/${hit.id}/decide`, { decision: 'false_positive', reason: 'not them' }],
    ] as const) {
      const res = await adminCall(w.t, method, url, support.headers, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().errors).toEqual(['admin.forbidden']);
    }
    // The customer themself, without a staff role.
    const own = await w.t.app.inject({
      method: 'POST',
      url: `/api/v2/admin/sanctions/hits/${hit.id}/decide`,
      headers: who.headers,
      payload: { decision: 'false_positive', reason: 'not me' },
    });
    expect(own.statusCode).toBe(403);
    // Without a session at all.
    const anonymous = await fetch(`${await listening()}/api/v2/admin/sanctions/hits`);
    expect(anonymous.status).toBe(401);

    const noReason = await adminCall(w.t, 'POST', `/sanctions/hits/${hit.id}/decide`, compliance.headers, {
      decision: 'false_positive',
    });
    expect(noReason.statusCode).toBe(422);
    const cleared = await adminCall(w.t, 'POST', `/sanctions/hits/${hit.id}/decide`, compliance.headers, {
      decision: 'false_positive',
      reason: 'Born 1988 in Kraków; the listed person was born 1970',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ state: 'false_positive', decided_by: compliance.email });
    const trail = (
      await pool().query(`select * from staff_actions where action = 'sanctions.hit.decide' order by id desc`)
    ).rows[0];
    expect(trail).toMatchObject({ staff_id: String(compliance.id) });
    expect(trail.after).toMatchObject({ state: 'false_positive', reason: expect.stringContaining('1970') });
    const again = await adminCall(w.t, 'POST', `/sanctions/hits/${hit.id}/decide`, compliance.headers, {
      decision: 'confirmed',
      reason: 'changed my mind',
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual(['admin.sanctions.already_decided']);

    const after = await w.withdraw(who, beneficiary, '12');
    expect(after.statusCode, after.body).toBe(201);
    // The same name is not raised again by a later screening.
    await screening.runDaily(new Date(), true);
    expect((await hitsOf(who.id)).length).toBe(1);
  });

  it('screens company representatives and beneficiaries; staff never decide their own hit', async () => {
    const officer = await person(w.t, 'second-officer@sanctions.test', 'compliance');
    await stepUp(w.t, officer);
    const company = (
      await pool().query(
        `insert into companies (user_id, name, registration_number, country, address)
         values ($1, 'Harmless Trading', 'KRS1', 'POL', 'Street 2') returning id`,
        [officer.id],
      )
    ).rows[0];
    await pool().query(
      `insert into company_representatives (company_id, position, name, role) values ($1, 0, $2, 'ubo')`,
      [company.id, 'Νικόλαος Πλασματόπουλος'],
    );
    await screening.drainQueue();
    const [hit] = await hitsOf(officer.id);
    expect(hit).toMatchObject({ subject_kind: 'representative', entry_logical_id: '900103' });
    const ownDecision = await adminCall(w.t, 'POST', `/sanctions/hits/${hit.id}/decide`, officer.headers, {
      decision: 'false_positive',
      reason: 'that is not my owner',
    });
    expect(ownDecision.statusCode).toBe(403);
    expect(ownDecision.json().errors).toEqual(['admin.user.own_account']);
    const confirmed = await adminCall(w.t, 'POST', `/sanctions/hits/${hit.id}/decide`, compliance.headers, {
      decision: 'confirmed',
      reason: 'Same person, same birth year',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Confirmed: still frozen.
    const member: Member = {
      id: officer.id,
      email: officer.email,
      headers: officer.headers,
      secret: officer.secret,
    };
    await pool().query('update users set level = 3, password_digest = $2 where id = $1', [
      officer.id,
      await hashPassword(PASSWORD),
    ]);
    const refused = await transfer(member, 'clean@sanctions.test');
    expect(refused.json().errors).toEqual([FROZEN]);

    // A beneficiary's saved name.
    const { who } = await w.withdrawer('payer@sanctions.test', 10n * TRX);
    await pool().query(`update beneficiaries set name = 'ACME Shadow Holdings Ltd' where user_id = $1`, [
      who.id,
    ]);
    await screening.drainQueue();
    expect(await hitsOf(who.id)).toMatchObject([{ subject_kind: 'beneficiary', entry_logical_id: '900104' }]);
  });

  it('says so in withdraw_permission while a hit freezes the account, over the wire, for that account only', async () => {
    const base = await listening();
    const permission = async (headers: Record<string, string>) => {
      const res = await fetch(`${base}/api/v2/peatio/account/withdraw_permission`, { headers });
      return { status: res.status, body: await res.json() };
    };
    const { who } = await w.withdrawer('frozen-permission@sanctions.test', 10n * TRX);
    const other = await w.withdrawer('free-permission@sanctions.test', 10n * TRX);
    // Older than the hold after a password change, so only the freeze can stand in the way.
    await pool().query(
      `update users set password_changed_at = now() - interval '3 days' where id = any($1)`,
      [[who.id, other.who.id]],
    );
    const open = { allowed: true, level: 3, otp: true, hold_until: null, reason: null };
    expect(await permission(who.headers)).toEqual({ status: 200, body: open });
    await saveProfile(who, 'Borislav', 'Fictivenko');
    await screening.drainQueue();
    const [hit] = await hitsOf(who.id);
    expect(hit).toMatchObject({ state: 'open', entry_logical_id: '900101' });
    const frozen = { ...open, allowed: false, reason: FROZEN };
    expect(await permission(who.headers)).toEqual({ status: 200, body: frozen });
    // The same reason the refusal gives; another customer's session sees its own, open, permission.
    expect((await w.withdraw(who, (await beneficiaryOf(who)) as number, '1')).json().errors).toEqual([
      FROZEN,
    ]);
    expect(await permission(other.who.headers)).toEqual({ status: 200, body: open });
    expect((await permission({})).status).toBe(401);
    // A 2FA change's hold and the freeze together: the freeze is named (it does not end by itself).
    await pool().query(`update users set password_changed_at = now() where id = $1`, [who.id]);
    const both = (await permission(who.headers)).body;
    expect(both).toMatchObject({ allowed: false, reason: FROZEN, hold_until: expect.any(String) });
    await pool().query(`update users set password_changed_at = now() - interval '3 days' where id = $1`, [
      who.id,
    ]);
    // Confirmed keeps it frozen; a false positive (the only other way out) opens it again.
    await pool().query(`update sanctions_hits set state = 'confirmed' where id = $1`, [hit.id]);
    expect((await permission(who.headers)).body).toEqual(frozen);
    await pool().query(`update sanctions_hits set state = 'false_positive' where id = $1`, [hit.id]);
    expect(await permission(who.headers)).toEqual({ status: 200, body: open });
  });

  it('screens everyone daily: a name added to a newer list is found once the customer is due again', async () => {
    const t0 = new Date();
    const { who } = await w.withdrawer('quentin@sanctions.test', 10n * TRX);
    await saveProfile(who, 'Quentin', 'Examplovsky');
    await screening.drainQueue();
    expect(await hitsOf(who.id)).toEqual([]);
    // A newer list adds "Квентин Экзампловский" (the same name in Cyrillic).
    const demo = await readFile(DEMO_SANCTIONS_LIST, 'utf8');
    const newer = demo.replace(
      '</export>',
      `<sanctionEntity euReferenceNumber="EU.DEMO.9" logicalId="900109"><subjectType code="person"/>
        <nameAlias wholeName="Квентин Экзампловский" function=""/></sanctionEntity></export>`,
    );
    const file = join(dir, 'newer.xml');
    await writeFile(file, newer);
    expect(await cli('import', file)).toBe(0);
    const lists = (await pool().query('select current, entity_count from sanctions_lists order by id')).rows;
    expect(lists).toEqual([
      { current: false, entity_count: 5 },
      { current: true, entity_count: 6 },
    ]);
    // The earlier hits keep what they matched though their list was replaced.
    expect((await pool().query('select count(*)::int as n from sanctions_hits')).rows[0].n).toBeGreaterThan(
      0,
    );

    // An hour later the customer is not due yet; a day later they are, and the new entry is found.
    await screening.runDaily(new Date(t0.getTime() + 60 * 60 * 1000));
    expect(await hitsOf(who.id)).toEqual([]);
    expect(await screening.runDaily(new Date(t0.getTime() + 25 * 60 * 60 * 1000))).toBeGreaterThan(0);
    expect(await hitsOf(who.id)).toMatchObject([
      {
        subject_kind: 'customer',
        entry_logical_id: '900109',
        entry_name: 'Квентин Экзампловский',
        state: 'open',
      },
    ]);
    const refused = await w.withdraw(
      who,
      (await pool().query('select id from beneficiaries where user_id = $1', [who.id])).rows[0].id,
      '12',
    );
    expect(refused.json().errors).toEqual([FROZEN]);
  });
});

describe('sanctions screening of a business paying out', () => {
  it("refuses to execute a frozen business's mass payout file, moving nothing; a cleared hit lets it run", async () => {
    const payer = await w.member('payout-payer@sanctions.test');
    await pool().query(`update users set account_type = 'business', level = 3 where id = $1`, [payer.id]);
    await w.credit(payer, 'trx', 50n * TRX);
    const csv = `currency,network,recipient,amount,reference\r\ntrx,tron-sim,${externalAddress('tron')},40,invoice`;
    const boundary = 'sanctions-payout-boundary';
    const uploaded = await w.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/payouts',
      headers: { ...payer.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="p.csv"\r\n` +
          `content-type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      ),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json().id as number;
    // The company's director is on the list: the screening finds the name and freezes the account.
    await saveProfile(payer, 'Borislav', 'Fictivenko');
    await screening.drainQueue();
    const [hit] = await hitsOf(payer.id);
    expect(hit).toMatchObject({ state: 'open', entry_logical_id: '900101' });
    const execute = async () =>
      w.call(payer, 'POST', `/account/payouts/${file}/execute`, { otp: await w.totp(payer) });
    const refused = await execute();
    expect([refused.statusCode, refused.json().errors]).toEqual([403, [FROZEN]]);
    expect(w.balance(payer, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    expect((await w.call(payer, 'GET', `/account/payouts/${file}`)).json().state).toBe('validated');

    // Half an hour on, on the app's clock: the decision is stamped with its time, not the database's.
    w.t.clock.advance(30 * 60_000);
    await stepUp(w.t, compliance);
    const before = w.t.clock.now();
    const cleared = await adminCall(w.t, 'POST', `/sanctions/hits/${hit.id}/decide`, compliance.headers, {
      decision: 'false_positive',
      reason: 'Different person: other date of birth and citizenship',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const decidedAt = new Date(cleared.json().decided_at).getTime();
    expect(decidedAt).toBeGreaterThanOrEqual(before);
    expect(decidedAt).toBeLessThanOrEqual(w.t.clock.now());
    const run = await execute();
    expect(run.statusCode, run.body).toBe(202);
  });
});

/** The id of the customer's one saved address. */
async function beneficiaryOf(who: Member): Promise<number | undefined> {
  return (await pool().query('select id from beneficiaries where user_id = $1', [who.id])).rows[0]?.id;
}

let url: string | undefined;
async function listening(): Promise<string> {
  url ??= await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  return url;
}
