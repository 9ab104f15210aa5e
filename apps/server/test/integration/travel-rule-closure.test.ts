import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { nextIp } from '../support/identity.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * The travel rule on the withdrawals an account closure makes (issue 33 item 4, with issue 31's closure): each
 * carries the IVMS 101 record an ordinary withdrawal carries (the originator from the verified profile, the
 * beneficiary as the saved address declares it), goes to the beneficiary's provider over the travel-rule port, and
 * is held for review on the same rules: a refusal, an address that declares nothing (TRAVEL_RULE_HOLD_UNDECLARED),
 * and a self-hosted address above the threshold must have been proved first. EUR 46 is 50 TRX here.
 */
const w = walletSuite({
  TRAVEL_RULE_HOLD_UNDECLARED: 'true',
  TRAVEL_RULE_SELF_HOSTED_EUR: '46',
  CARD_EUR_PER_USDT: '0.92',
});
const PASSWORD = 'Closure-travel-2026!';
const URL = '/api/v2/barong/resource/users/closure';

beforeAll(async () => {
  // The counterparty's simulator is reached over HTTP, as a real provider would be.
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
});

/** A level-3 member with a verified name, a password we know, and `trx` TRX. */
async function closer(email: string, trx: bigint): Promise<Member> {
  const who = await w.member(email);
  await w.t.db.pool.query('update users set password_digest = $2 where id = $1', [
    who.id,
    await hashPassword(PASSWORD),
  ]);
  await w.t.db.pool.query(
    `insert into profiles (user_id, first_name, last_name, country, city, dob, state)
     values ($1, 'Marta', 'Wrona', 'PL', 'Gdansk', '1985-06-07', 'verified')`,
    [who.id],
  );
  await w.credit(who, 'trx', trx * TRX);
  return who;
}

/** Saves and activates an address with these travel-rule fields, past the new-address review window. */
async function saved(who: Member, info: Record<string, string>): Promise<number> {
  const created = await w.call(who, 'POST', '/account/beneficiaries', {
    name: 'Where it goes',
    currency: 'trx',
    blockchain_key: 'tron-sim',
    data: { address: externalAddress('tron') },
    ...info,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  const pin = await w.emailedPin(who);
  expect((await w.call(who, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin })).statusCode).toBe(200);
  await w.t.db.pool.query(`update beneficiaries set activated_at = now() - interval '2 days' where id = $1`, [
    id,
  ]);
  return id;
}

const behave = (provider: string, behaviour: 'accept' | 'refuse') =>
  w.t.db.pool.query(
    `insert into travel_rule_sim_providers (provider_id, behaviour) values ($1, $2)
     on conflict (provider_id) do update set behaviour = excluded.behaviour`,
    [provider, behaviour],
  );

const close = async (who: Member, beneficiary: number) =>
  w.t.app.inject({
    method: 'POST',
    url: URL,
    remoteAddress: nextIp(),
    headers: who.headers,
    payload: {
      password: PASSWORD,
      otp_code: await w.totp(who),
      addresses: [{ currency: 'trx', beneficiary_id: beneficiary }],
    },
  });

/** The withdrawal the user's closure made. */
async function closureWithdrawal(who: Member) {
  return (
    await w.t.db.pool.query(
      `select w.id::int, w.state, w.review_reasons, w.travel_rule_status, w.travel_rule
         from account_closure_withdrawals l join withdrawals w on w.id = l.withdrawal_id
         join account_closures c on c.id = l.closure_id where c.user_id = $1`,
      [who.id],
    )
  ).rows[0];
}

describe('the travel rule on account-closure withdrawals', () => {
  it("sends the IVMS 101 record to the beneficiary's provider, with the originator from the verified profile", async () => {
    await behave('vistula', 'accept');
    const who = await closer('provider@closure-travel.test', 80n);
    const id = await saved(who, {
      beneficiary_name: 'Marta Wrona',
      hosting: 'provider',
      provider_id: 'vistula',
    });
    const res = await close(who, id);
    expect(res.statusCode, res.body).toBe(201);
    const row = await closureWithdrawal(who);
    expect(row).toMatchObject({ state: 'accepted', travel_rule_status: 'sent' });
    expect(row.travel_rule.originator.originatorPersons[0].naturalPerson).toMatchObject({
      name: { nameIdentifier: [{ primaryIdentifier: 'Wrona', secondaryIdentifier: 'Marta' }] },
      dateAndPlaceOfBirth: { dateOfBirth: '1985-06-07', placeOfBirth: 'Gdansk' },
    });
    expect(row.travel_rule.beneficiary.beneficiaryPersons[0].naturalPerson.name.nameIdentifier).toEqual([
      { primaryIdentifier: 'Marta Wrona', nameIdentifierType: 'LEGL' },
    ]);
    expect(row.travel_rule.beneficiaryVASP.beneficiaryVASP.legalPerson.name.nameIdentifier[0]).toMatchObject({
      legalPersonName: 'Vistula Crypto S.A. (fictional)',
    });
    expect(row.travel_rule.answer).toEqual({ outcome: 'accepted', reference: `SIM-W${row.id}` });
    const received = await w.t.db.pool.query(
      'select provider_id, answer from travel_rule_sim_messages where reference = $1',
      [`W${row.id}`],
    );
    expect(received.rows).toEqual([{ provider_id: 'vistula', answer: 'accepted' }]);
  });

  it('holds it for review when the provider refuses the data, as any withdrawal', async () => {
    await behave('nordwind', 'refuse');
    const who = await closer('refused@closure-travel.test', 30n);
    const id = await saved(who, {
      beneficiary_name: 'Marta Wrona',
      hosting: 'provider',
      provider_id: 'nordwind',
    });
    const res = await close(who, id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'open' });
    expect(await closureWithdrawal(who)).toMatchObject({
      state: 'under_review',
      review_reasons: ['travel_rule.refused'],
      travel_rule_status: 'refused',
    });
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 30n * TRX });
  });

  it('holds an address that declares nothing for review when the operator says so', async () => {
    const who = await closer('undeclared@closure-travel.test', 30n);
    const res = await close(who, await saved(who, {}));
    expect(res.statusCode, res.body).toBe(201);
    expect(await closureWithdrawal(who)).toMatchObject({
      state: 'under_review',
      review_reasons: ['travel_rule.undeclared'],
      travel_rule_status: 'missing',
    });
  });

  it('refuses an unproved self-hosted address above the threshold, recording nothing; a proved one goes', async () => {
    const who = await closer('self-hosted@closure-travel.test', 80n);
    const id = await saved(who, { beneficiary_name: 'Marta Wrona', hosting: 'self_hosted' });
    const refused = await close(who, id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      errors: ['account.withdraw.address_unverified'],
      threshold_eur: '46.00',
    });
    const recorded = await w.t.db.pool.query(
      'select count(*)::int as n from account_closures where user_id = $1',
      [who.id],
    );
    expect(recorded.rows[0].n).toBe(0);
    expect(w.balance(who, 'trx')).toEqual({ balance: 80n * TRX, locked: 0n });
    // Once proved (as the proof route records it), the closure goes, with the self-hosted record.
    await w.t.db.pool.query(
      `update beneficiaries set ownership_proved_at = now(), ownership_proof = '{"method":"tip191"}' where id = $1`,
      [id],
    );
    const res = await close(who, id);
    expect(res.statusCode, res.body).toBe(201);
    const row = await closureWithdrawal(who);
    expect(row).toMatchObject({ state: 'accepted', travel_rule_status: 'self_hosted' });
    expect(row.travel_rule.beneficiaryVASP).toBeUndefined();
  });
});
