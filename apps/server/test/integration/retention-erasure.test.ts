import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { auditLedger } from '../../src/core/audit.ts';
import { eraseDue, RetentionErasure } from '../../src/modules/account-closure/erasure.ts';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { nextIp } from '../support/identity.ts';
import { type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * Retention erasure (issue 31, part 4): a closed account keeps everything until its correspondence date (5 years),
 * then loses its correspondence, and at its records date (8 years) its personal records, while its money records
 * stay whole (the suite audits the ledger after the file, and the test audits it after the erasure). The job's
 * "now" is moved forward instead of waiting years.
 */
const w = walletSuite();
const PASSWORD = 'Erasure-pass-2026!';
const YEAR = 365.25 * 24 * 60 * 60 * 1000;
const later = (years: number) => new Date(Date.now() + years * YEAR);
const db = () => w.t.db.pool;

/** Personal data of every kind the erasure covers, written for `who`. */
async function seed(who: Member, phone: string): Promise<void> {
  const q = (sql: string, values: unknown[]) => db().query(sql, values);
  await q(
    `insert into profiles (user_id, first_name, last_name, address, city, country) values ($1, 'Ada', 'Lovelace', '1 Street', 'Town', 'DEU')`,
    [who.id],
  );
  await q(`insert into phones (user_id, country, number) values ($1, 'DE', $2)`, [who.id, phone]);
  await q(`insert into labels (user_id, key, value) values ($1, 'note', 'private label')`, [who.id]);
  await q(
    `insert into kyc_documents (user_id, doc_type, file_name, mime_type, size_bytes, content_sealed)
     values ($1, 'passport', 'passport.png', 'image/png', 3, '\\x010203')`,
    [who.id],
  );
  const holder = await q(
    `insert into card_holders (user_id, issuer_user_token, first_name, last_name, country, id_type, id_no)
     values ($1, $2, 'Ada', 'Lovelace', 'DE', 'passport', $3) returning id`,
    [who.id, `holder-${who.id}`, `P${who.id}X`],
  );
  await q(
    `insert into card_holder_documents (holder_id, doc_type, mime_type, size_bytes, content_sealed)
     values ($1, 'passport', 'image/png', 3, '\\x010203')`,
    [holder.rows[0].id],
  );
  const company = await q(
    `insert into companies (user_id, name, registration_number, country, address)
     values ($1, 'Acme GmbH', 'HRB 1234', 'DEU', 'Company Street 1') returning id`,
    [who.id],
  );
  const companyId = company.rows[0].id;
  await q(
    `insert into company_representatives (company_id, position, name, role, ownership) values ($1, 1, 'Ada Lovelace', 'ubo', 100)`,
    [companyId],
  );
  await q(
    `insert into company_documents (company_id, doc_type, issued_on, file_name, mime_type, size_bytes, content_sealed)
     values ($1, 'register_extract', current_date, 'extract.pdf', 'application/pdf', 3, '\\x010203')`,
    [companyId],
  );
  await q(
    `insert into contact_messages (email, subject, name, message, user_type, user_id, ip)
     values ($2, 'Hello', 'Ada', 'a question', 'member', $1, '192.0.2.7')`,
    [who.id, who.email],
  );
  await q(
    `insert into mail_outbox (channel, recipient, subject, body, template) values ('email', $1, 'Hi', 'body', 'test')`,
    [who.email],
  );
  await q(
    `insert into mail_outbox (channel, recipient, subject, body, template) values ('sms', $1, '', 'sms body', 'test')`,
    [`+${phone}`],
  );
  await q(
    `insert into activities (user_id, action, result, topic, ip, user_agent, data)
     values ($1, 'login', 'succeed', 'session', '192.0.2.7', 'Firefox', '{"country":"DE"}')`,
    [who.id],
  );
}

/** What the account still holds, per category (counts, and the fields that identify the person). */
async function holdings(who: Member, email: string, phone: string) {
  const n = async (sql: string, values: unknown[] = [who.id]) =>
    Number((await db().query(`select count(*)::int as n from ${sql}`, values)).rows[0].n);
  const user = (await db().query('select email, password_digest, uid from users where id = $1', [who.id]))
    .rows[0];
  return {
    email: user.email as string,
    password: (user.password_digest as string).length > 0,
    contact: await n('contact_messages where user_id = $1'),
    mail: await n('mail_outbox where recipient = any($1)', [[email, `+${phone}`]]),
    profiles: await n('profiles where user_id = $1'),
    phones: await n('phones where user_id = $1'),
    labels: await n('labels where user_id = $1'),
    documents: await n('kyc_documents where user_id = $1'),
    holder: (
      await db().query('select first_name, last_name, id_no from card_holders where user_id = $1', [who.id])
    ).rows[0],
    company: (await db().query('select name from companies where user_id = $1', [who.id])).rows[0]
      ?.name as string,
    representatives: await n(
      'company_representatives r join companies c on c.id = r.company_id where c.user_id = $1',
    ),
    companyDocuments: await n(
      'company_documents d join companies c on c.id = d.company_id where c.user_id = $1',
    ),
    sessions: await n('sessions where user_id = $1'),
    loggedIps: await n('activities where user_id = $1 and (ip is not null or user_agent is not null)'),
    beneficiaryNames: (
      await db().query('select name from beneficiaries where user_id = $1', [who.id])
    ).rows.map((r) => r.name as string),
  };
}

const trail = async (who: Member) =>
  (
    await db().query(
      'select uid, stage, category, rows from retention_erasures where user_id = $1 order by id',
      [who.id],
    )
  ).rows;

const postings = async (who: Member) =>
  (
    await db().query(
      `select count(*)::int as n, coalesce(sum(amount), 0)::text as sum from ledger_postings where account like $1`,
      [`u:${who.id}:%`],
    )
  ).rows[0];

describe('retention erasure of closed accounts', () => {
  it('keeps everything until 5 years, then the correspondence, at 8 years the personal records; the money stays', async () => {
    const who = await w.member('leaving@erasure.test');
    await db().query('update users set password_digest = $2 where id = $1', [
      who.id,
      await hashPassword(PASSWORD),
    ]);
    await w.credit(who, 'trx', 25n * TRX);
    const friend = await w.member('stays@erasure.test');
    const phone = '4915112345678';
    const friendPhone = '4915187654321';
    await seed(who, phone);
    await seed(friend, friendPhone);

    // Close: the balance goes to the friend (an internal transfer), the account closes at once.
    const beneficiary = await w.activeBeneficiary(who, await w.depositAddress(friend));
    const closed = await w.t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/resource/users/closure',
      remoteAddress: nextIp(),
      headers: who.headers,
      payload: {
        password: PASSWORD,
        otp_code: await w.totp(who),
        addresses: [{ currency: 'trx', beneficiary_id: beneficiary }],
      },
    });
    expect(closed.statusCode, closed.body).toBe(201);
    expect(closed.json().state).toBe('closed');
    const uid = (await db().query('select uid from users where id = $1', [who.id])).rows[0].uid as string;
    const moneyBefore = await postings(who);
    const before = await holdings(who, who.email, phone);
    const friendBefore = await holdings(friend, friend.email, friendPhone);
    expect(before).toMatchObject({ contact: 1, profiles: 1, phones: 1, documents: 1, company: 'Acme GmbH' });
    expect(before.loggedIps).toBeGreaterThan(0);
    // Our two messages, and what the app sent on the way (the beneficiary's pin, the closure).
    expect(before.mail).toBeGreaterThanOrEqual(2);

    // Before its dates (now, and a day short of 5 years): nothing at all.
    expect(await eraseDue(db(), new Date())).toEqual([]);
    expect(await eraseDue(db(), later(4.99))).toEqual([]);
    expect(await holdings(who, who.email, phone)).toEqual(before);
    expect(await trail(who)).toEqual([]);

    // After 5 years: the correspondence only.
    const job = new RetentionErasure(db(), systemClock, { warn: () => {}, info: () => {} });
    const five = await job.run(later(5.01));
    expect(five).toEqual([
      { uid, stage: 'correspondence', rows: { contact_messages: 1, mail_outbox: before.mail } },
    ]);
    expect(await holdings(who, who.email, phone)).toEqual({ ...before, contact: 0, mail: 0 });
    expect(await job.run(later(7.99))).toEqual([]);

    // After 8 years: the personal records; the uid, the money and the beneficiaries' addresses stay.
    const eight = await job.run(later(8.01));
    expect(eight).toHaveLength(1);
    expect(eight[0]).toMatchObject({ uid, stage: 'records' });
    expect(eight[0]?.rows).toMatchObject({
      profiles: 1,
      phones: 1,
      labels: 1,
      identity_documents: 2,
      card_holder: 1,
      company: 3,
      account: 1,
      beneficiaries: 1,
    });
    expect(eight[0]?.rows.sessions).toBeGreaterThan(0);
    expect(eight[0]?.rows.security_log).toBeGreaterThan(0);
    const erasedEmail = `erased-${uid}@invalid`;
    expect(await holdings(who, erasedEmail, phone)).toEqual({
      email: erasedEmail,
      password: false,
      contact: 0,
      mail: 0,
      profiles: 0,
      phones: 0,
      labels: 0,
      documents: 0,
      company: '[erased]',
      holder: { first_name: '[erased]', last_name: '[erased]', id_no: expect.stringMatching(/^ERASED-\d+$/) },
      representatives: 0,
      companyDocuments: 0,
      sessions: 0,
      loggedIps: 0,
      beneficiaryNames: ['[erased]'],
    });
    // The security log's entries stay (what happened, when), without where from.
    const log = await db().query('select count(*)::int as n from activities where user_id = $1', [who.id]);
    expect(log.rows[0].n).toBeGreaterThan(0);
    // Money records are whole: the same postings, the withdrawal with its amount, and the books add up.
    expect(await postings(who)).toEqual(moneyBefore);
    const withdrawal = await db().query('select amount::text, rid from withdrawals where user_id = $1', [
      who.id,
    ]);
    expect(withdrawal.rows).toEqual([
      { amount: '25.000000000000000000', rid: await w.depositAddress(friend) },
    ]);
    expect(await auditLedger(db())).toEqual([]);

    // The trail: every category of both stages, with counts, never the content.
    const rows = await trail(who);
    expect(rows.filter((r) => r.stage === 'correspondence').map((r) => [r.category, r.rows])).toEqual([
      ['contact_messages', 1],
      ['mail_outbox', before.mail],
    ]);
    expect(rows.filter((r) => r.stage === 'records').map((r) => r.category)).toEqual(
      Object.keys(eight[0]?.rows ?? {}),
    );
    expect(rows.every((r) => r.uid === uid)).toBe(true);
    const dates = await db().query(
      `select correspondence_erased_at is not null as c, records_erased_at is not null as r from account_closures where user_id = $1`,
      [who.id],
    );
    expect(dates.rows).toEqual([{ c: true, r: true }]);
    // The trail cannot be rewritten.
    await expect(db().query('delete from retention_erasures where user_id = $1', [who.id])).rejects.toThrow(
      /append-only|permission denied/,
    );

    // A second run, even years later, removes nothing more and writes no trail.
    expect(await job.run(later(20))).toEqual([]);
    expect((await trail(who)).length).toBe(rows.length);

    // The open account was never touched.
    const friendAfter = await holdings(friend, friend.email, friendPhone);
    expect(friendAfter).toEqual(friendBefore);
    expect(await trail(friend)).toEqual([]);
  });

  it('refuses to clear the security log of an account that is open or not yet due', async () => {
    const open = await w.member('open@erasure.test');
    await expect(
      db().query('select retention_erase_activities($1, $2)', [open.id, later(100)]),
    ).rejects.toThrow(/not due/);
  });
});
