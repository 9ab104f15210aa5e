import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * The travel rule's record of the transfers that do not go through a saved address (issue 33, item 4): transfers
 * to another customer (by email, phone or deposit address) and each row of a mass payout. A transfer between two
 * customers names both from their verified profiles; a payout row to an outside address names no beneficiary,
 * which its record says, and which holds it for review here (TRAVEL_RULE_HOLD_UNDECLARED on).
 */
const w = walletSuite({ TRAVEL_RULE_HOLD_UNDECLARED: 'true' });
const PASSWORD = 'Travel-pass1';
const HEADER = 'currency,network,recipient,amount,reference';

/** A member whose password is {@link PASSWORD}, with a verified profile unless `profile` is null. */
async function customer(
  email: string,
  profile: { first: string; last: string; city: string; dob: string } | null,
): Promise<Member & { uid: string }> {
  const who = await w.member(email);
  await w.t.db.pool.query('update users set password_digest = $2 where id = $1', [
    who.id,
    await hashPassword(PASSWORD),
  ]);
  if (profile)
    await w.t.db.pool.query(
      `insert into profiles (user_id, first_name, last_name, address, postcode, city, country, dob, state)
       values ($1, $2, $3, 'Dluga 1', '00-001', $4, 'PL', $5, 'verified')`,
      [who.id, profile.first, profile.last, profile.city, profile.dob],
    );
  const { uid } = (await w.t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0];
  return { ...who, uid };
}

const record = async (withdrawalId: number) =>
  (
    await w.t.db.pool.query(
      'select state, travel_rule, travel_rule_status, review_reasons from withdrawals where id = $1',
      [withdrawalId],
    )
  ).rows[0];

/** The originator as the record carries it: everything the verified profile says. */
const originatorOf = (who: { uid: string }, last: string, first: string, city: string, dob: string) => ({
  originatorPersons: [
    {
      naturalPerson: {
        name: {
          nameIdentifier: [
            { primaryIdentifier: last, secondaryIdentifier: first, nameIdentifierType: 'LEGL' },
          ],
        },
        customerIdentification: who.uid,
        geographicAddress: [
          {
            addressType: 'HOME',
            addressLine: ['Dluga 1'],
            postCode: '00-001',
            townName: city,
            country: 'PL',
          },
        ],
        countryOfResidence: 'PL',
        dateAndPlaceOfBirth: { dateOfBirth: dob, placeOfBirth: city },
      },
    },
  ],
  accountNumber: [who.uid],
});

/** A customer here as a beneficiary: the name and the account, nothing else of theirs. */
const beneficiaryOf = (who: { uid: string }, last: string, first: string) => ({
  beneficiaryPersons: [
    {
      naturalPerson: {
        name: {
          nameIdentifier: [
            { primaryIdentifier: last, secondaryIdentifier: first, nameIdentifierType: 'LEGL' },
          ],
        },
        customerIdentification: who.uid,
      },
    },
  ],
  accountNumber: [who.uid],
});

const US = {
  legalPerson: {
    name: { nameIdentifier: [{ legalPersonName: 'Exchange', legalPersonNameIdentifierType: 'LEGL' }] },
  },
};

describe('transfers between customers', () => {
  it('store both parties from their verified profiles, by email and by deposit address', async () => {
    const sender = await customer('sender@tr-transfer.test', {
      first: 'Ewa',
      last: 'Zielinska',
      city: 'Krakow',
      dob: '1990-04-01',
    });
    const friend = await customer('friend@tr-transfer.test', {
      first: 'Piotr',
      last: 'Nowak',
      city: 'Gdansk',
      dob: '1985-12-24',
    });
    await w.credit(sender, 'trx', 50n * TRX);
    const byEmail = await w.call(sender, 'POST', '/account/internal_transfers', {
      currency: 'trx',
      password: PASSWORD,
      recipient: 'friend@tr-transfer.test',
      amount: '10',
    });
    expect(byEmail.statusCode, byEmail.body).toBe(201);
    const expected = {
      originator: originatorOf(sender, 'Zielinska', 'Ewa', 'Krakow', '1990-04-01'),
      beneficiary: beneficiaryOf(friend, 'Nowak', 'Piotr'),
      originatingVASP: { originatingVASP: US },
      beneficiaryVASP: { beneficiaryVASP: US },
    };
    expect(await record(byEmail.json().id)).toEqual({
      state: 'succeed',
      travel_rule: expected,
      travel_rule_status: 'not_required',
      review_reasons: null,
    });
    // The recipient's address and date of birth stay out of the sender's record; nothing of it is answered.
    const stored = JSON.stringify((await record(byEmail.json().id)).travel_rule);
    expect(stored).not.toContain('Gdansk');
    expect(stored).not.toContain('1985-12-24');
    expect(byEmail.body).not.toContain('Nowak');

    const address = await w.depositAddress(friend);
    const byAddress = await w.call(sender, 'POST', '/account/internal_transfers', {
      currency: 'trx',
      password: PASSWORD,
      recipient: address,
      amount: '10',
    });
    expect(byAddress.statusCode, byAddress.body).toBe(201);
    expect((await record(byAddress.json().id)).travel_rule).toEqual(expected);
  });

  it('record nothing for a refused transfer: no session, a wrong password', async () => {
    const sender = await customer('refused@tr-transfer.test', null);
    await customer('target@tr-transfer.test', null);
    await w.credit(sender, 'trx', 20n * TRX);
    const body = { currency: 'trx', recipient: 'target@tr-transfer.test', amount: '10' };
    const anonymous = await w.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/internal_transfers',
      payload: { ...body, password: PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await w.call(sender, 'POST', '/account/internal_transfers', {
      ...body,
      password: 'Wrong-pass1',
    });
    expect(wrong.json().errors).toEqual(['account.internal_transfer.invalid_password']);
    const rows = await w.t.db.pool.query('select 1 from withdrawals where user_id = $1', [sender.id]);
    expect(rows.rowCount).toBe(0);
    // A customer without a profile: the record is kept with the account alone, the name left empty.
    const ok = await w.call(sender, 'POST', '/account/internal_transfers', { ...body, password: PASSWORD });
    expect(ok.statusCode, ok.body).toBe(201);
    const kept = await record(ok.json().id);
    expect(kept.travel_rule_status).toBe('not_required');
    expect(kept.travel_rule.originator.originatorPersons[0].naturalPerson.name.nameIdentifier).toEqual([]);
    expect(kept.travel_rule.beneficiary.beneficiaryPersons[0].naturalPerson.name.nameIdentifier).toEqual([]);
  });
});

/** A multipart body with one CSV file. */
function form(csv: string) {
  const boundary = `----tr${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="p.csv"\r\ncontent-type: text/csv\r\n\r\n`,
    ),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, type: `multipart/form-data; boundary=${boundary}` };
}

/** The file once every row is placed (the execution runs in the background). */
async function executed(who: Member, id: number) {
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    const file = (await w.call(who, 'GET', `/account/payouts/${id}`)).json();
    if (file.state === 'executed') return file;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`file ${id} did not finish`);
}

describe('mass payout rows', () => {
  beforeAll(async () => {
    const network = w.t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    await w.tron.faucet((await hotWallet(w.t.db.pool, network)).address, 'trx', 1000n * TRX);
    await w.mine(1);
  });

  it('each store a record: a customer from the profile, an outside address without a beneficiary, held', async () => {
    const payer = await customer('payer@tr-payout.test', {
      first: 'Anna',
      last: 'Kowalska',
      city: 'Poznan',
      dob: '1979-07-07',
    });
    await w.t.db.pool.query(`update users set account_type = 'business' where id = $1`, [payer.id]);
    const payee = await customer('payee@tr-payout.test', {
      first: 'Jan',
      last: 'Wisniewski',
      city: 'Lodz',
      dob: '2000-01-31',
    });
    await w.credit(payer, 'trx', 100n * TRX);
    const outside = externalAddress('tron');
    const { payload, type } = form(
      `${HEADER}\ntrx,tron-sim,payee@tr-payout.test,10,salary\ntrx,tron-sim,${outside},10,invoice\n`,
    );
    const uploaded = await w.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/payouts',
      headers: { ...payer.headers, 'content-type': type },
      payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = uploaded.json().id as number;
    // Another customer's session sees no such file and cannot run it.
    const stranger = await customer('stranger@tr-payout.test', null);
    await w.t.db.pool.query(`update users set account_type = 'business' where id = $1`, [stranger.id]);
    expect((await w.call(stranger, 'GET', `/account/payouts/${fileId}`)).statusCode).toBe(404);
    const foreign = await w.call(stranger, 'POST', `/account/payouts/${fileId}/execute`, {
      otp: await w.totp(stranger),
    });
    expect(foreign.statusCode).toBe(404);

    const run = await w.call(payer, 'POST', `/account/payouts/${fileId}/execute`, {
      otp: await w.totp(payer),
    });
    expect(run.statusCode, run.body).toBe(202);
    const rows = (await executed(payer, fileId)).rows as { row: number; withdrawal_id: number }[];
    const withdrawalOf = (line: number) => Number(rows.find((r) => r.row === line)?.withdrawal_id);
    const [internal, external] = [withdrawalOf(2), withdrawalOf(3)];

    const originator = originatorOf(payer, 'Kowalska', 'Anna', 'Poznan', '1979-07-07');
    expect(await record(internal)).toEqual({
      state: 'succeed',
      travel_rule: {
        originator,
        beneficiary: beneficiaryOf(payee, 'Wisniewski', 'Jan'),
        originatingVASP: { originatingVASP: US },
        beneficiaryVASP: { beneficiaryVASP: US },
      },
      travel_rule_status: 'not_required',
      review_reasons: null,
    });
    expect(await record(external)).toEqual({
      state: 'under_review',
      travel_rule: {
        originator,
        beneficiary: {
          beneficiaryPersons: [{ naturalPerson: { name: { nameIdentifier: [] } } }],
          accountNumber: [outside],
        },
        originatingVASP: { originatingVASP: US },
      },
      travel_rule_status: 'missing',
      review_reasons: ['travel_rule.undeclared'],
    });
  });
});
