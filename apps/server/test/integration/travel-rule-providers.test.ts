import { beforeAll, describe, expect, it } from 'vitest';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * The travel rule towards another provider (issue 33 item 4): the IVMS 101 message goes over the travel-rule port
 * to the simulator of a counterparty provider, reached over HTTP on the app's own server; a refusal, no answer in
 * time, or (when the operator says so) an address that declares nothing holds the withdrawal for review.
 */
const w = walletSuite({ TRAVEL_RULE_TIMEOUT_MS: '300', TRAVEL_RULE_HOLD_UNDECLARED: 'true' });
const { member, call, credit, emailedPin, withdraw } = w;

beforeAll(async () => {
  // The simulator is reached over HTTP, as a real provider would be.
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
});

/** A member with a verified name and 200 TRX. */
async function originator(email: string, named = true): Promise<Member> {
  const who = await member(email);
  if (named)
    await w.t.db.pool.query(
      `insert into profiles (user_id, first_name, last_name, country, state) values ($1, 'Ola', 'Nowak', 'PL', 'verified')`,
      [who.id],
    );
  await credit(who, 'trx', 200n * TRX);
  return who;
}

/** Saves and activates an address held by `provider` (or one declaring nothing). */
async function hosted(who: Member, provider: string | null) {
  const address = externalAddress('tron');
  const created = await call(who, 'POST', '/account/beneficiaries', {
    name: 'At an exchange',
    currency: 'trx',
    blockchain_key: 'tron-sim',
    data: { address },
    ...(provider ? { beneficiary_name: 'Piotr Lis', hosting: 'provider', provider_id: provider } : {}),
  });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const pin = await emailedPin(who);
  expect((await call(who, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin })).statusCode).toBe(200);
  // Past the new-address review window, so only the travel rule can hold it.
  await w.t.db.pool.query(`update beneficiaries set activated_at = now() - interval '2 days' where id = $1`, [
    id,
  ]);
  return id;
}

const behave = (provider: string, behaviour: 'accept' | 'refuse' | 'timeout') =>
  w.t.db.pool.query(
    `insert into travel_rule_sim_providers (provider_id, behaviour) values ($1, $2)
     on conflict (provider_id) do update set behaviour = excluded.behaviour`,
    [provider, behaviour],
  );

async function placed(id: number) {
  return (
    await w.t.db.pool.query(
      'select state, review_reasons, travel_rule_status, travel_rule from withdrawals where id = $1',
      [id],
    )
  ).rows[0];
}

describe('travel-rule message to the beneficiary provider', () => {
  it('is accepted by the counterparty, which received the IVMS 101 payload, and the withdrawal goes on', async () => {
    const who = await originator('accepted@travel.test');
    await behave('vistula', 'accept');
    const res = await withdraw(who, await hosted(who, 'vistula'), '20');
    expect(res.statusCode).toBe(201);
    const row = await placed(res.json().id);
    expect(row).toMatchObject({ state: 'accepted', travel_rule_status: 'sent' });
    expect(row.travel_rule.beneficiaryVASP).toEqual({
      beneficiaryVASP: {
        legalPerson: {
          name: {
            nameIdentifier: [
              { legalPersonName: 'Vistula Crypto S.A. (fictional)', legalPersonNameIdentifierType: 'LEGL' },
            ],
          },
        },
      },
    });
    expect(row.travel_rule.answer).toEqual({ outcome: 'accepted', reference: `SIM-W${res.json().id}` });
    const received = await w.t.db.pool.query(
      'select provider_id, answer, payload from travel_rule_sim_messages where reference = $1',
      [`W${res.json().id}`],
    );
    expect(received.rows[0]).toMatchObject({ provider_id: 'vistula', answer: 'accepted' });
    expect(
      received.rows[0].payload.payload.originator.originatorPersons[0].naturalPerson.name.nameIdentifier,
    ).toEqual([{ primaryIdentifier: 'Nowak', secondaryIdentifier: 'Ola', nameIdentifierType: 'LEGL' }]);
  });

  it('refused by the counterparty: the withdrawal waits for review with the reason', async () => {
    const who = await originator('refused@travel.test');
    await behave('nordwind', 'refuse');
    const res = await withdraw(who, await hosted(who, 'nordwind'), '20');
    expect(res.statusCode).toBe(201);
    expect(await placed(res.json().id)).toMatchObject({
      state: 'under_review',
      review_reasons: ['travel_rule.refused'],
      travel_rule_status: 'refused',
    });
  });

  it('without the originator name the counterparty refuses it, and it waits for review', async () => {
    const who = await originator('nameless@travel.test', false);
    await behave('vistula', 'accept');
    const res = await withdraw(who, await hosted(who, 'vistula'), '20');
    const row = await placed(res.json().id);
    expect(row).toMatchObject({ state: 'under_review', review_reasons: ['travel_rule.refused'] });
    expect(row.travel_rule.answer).toEqual({ outcome: 'refused', reason: 'missing_originator' });
  });

  it('no answer in time: the withdrawal waits for review as unreachable', async () => {
    const who = await originator('timeout@travel.test');
    await behave('alpenkrypto', 'timeout');
    const res = await withdraw(who, await hosted(who, 'alpenkrypto'), '20');
    expect(res.statusCode).toBe(201);
    expect(await placed(res.json().id)).toMatchObject({
      state: 'under_review',
      review_reasons: ['travel_rule.unreachable'],
      travel_rule_status: 'unreachable',
    });
  });

  it('an address that declares nothing waits for review when the operator holds those', async () => {
    const who = await originator('undeclared@travel.test');
    const res = await withdraw(who, await hosted(who, null), '20');
    expect(await placed(res.json().id)).toMatchObject({
      state: 'under_review',
      review_reasons: ['travel_rule.undeclared'],
      travel_rule_status: 'missing',
    });
  });
});
