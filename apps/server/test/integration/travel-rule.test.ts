import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { p2wpkh } from '@scure/btc-signer';
import bitcoinMessage from 'bitcoinjs-message';
import { Wallet } from 'ethers';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { savedOffChain } from '../support/travel-rule.ts';
import { type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * The travel rule (issue 33 item 4): beneficiary information in the address book, the signed-message proof of a
 * self-hosted address before a withdrawal above the threshold, and the IVMS 101 record of each withdrawal.
 * The threshold is EUR 46 here: 1 TRX is valued at 1 USDT (no market) × 0.92 EUR, so 50 TRX is exactly EUR 46.
 */
const w = walletSuite({ TRAVEL_RULE_SELF_HOSTED_EUR: '46', CARD_EUR_PER_USDT: '0.92' });
const { member, call, balance, credit, emailedPin, withdraw } = w;

const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9' });
/** A TRON key of the customer's own wallet: its address and a TronWeb signature of a message. */
function tronKey() {
  const key = hex.encode(secp256k1.utils.randomSecretKey());
  return {
    address: TronWeb.address.fromPrivateKey(key) as string,
    sign: (message: string) => tronWeb.trx.signMessageV2(message, key),
  };
}

/** Saves and activates an address with the given travel-rule fields; returns its id. */
async function saved(who: Member, address: string, info: Record<string, string>) {
  const created = await call(who, 'POST', '/account/beneficiaries', {
    name: `to ${address.slice(0, 6)}`,
    currency: 'trx',
    blockchain_key: 'tron-sim',
    data: { address },
    ...info,
  });
  expect(created.json().errors).toBeUndefined();
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const pin = await emailedPin(who);
  expect((await call(who, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin })).statusCode).toBe(200);
  return id;
}

const selfHosted = { beneficiary_name: 'Jan Kowalski', hosting: 'self_hosted' };

describe('beneficiary information in the address book', () => {
  it('lists the provider directory and stores the declared beneficiary and provider', async () => {
    const who = await member('book@travel.test');
    const providers = await call(who, 'GET', '/account/travel_rule/providers');
    expect(providers.statusCode).toBe(200);
    expect(providers.json()).toContainEqual({
      id: 'vistula',
      name: 'Vistula Crypto S.A. (fictional)',
      lei: null,
    });
    const id = await saved(who, tronKey().address, {
      beneficiary_name: 'Anna Nowak',
      hosting: 'provider',
      provider_id: 'vistula',
    });
    const item = (await call(who, 'GET', `/account/beneficiaries/${id}`)).json();
    expect(item).toMatchObject({
      beneficiary_name: 'Anna Nowak',
      hosting: 'provider',
      provider: { id: 'vistula', name: 'Vistula Crypto S.A. (fictional)', lei: null },
      ownership_proved_at: null,
    });
  });

  it('still takes an address from a client that sends none of it, and refuses inconsistent values', async () => {
    const who = await member('old-client@travel.test');
    const id = await saved(who, tronKey().address, {});
    expect((await call(who, 'GET', `/account/beneficiaries/${id}`)).json()).toMatchObject({
      beneficiary_name: null,
      hosting: null,
      provider: null,
    });
    const refused = async (fields: Record<string, unknown>) => {
      const res = await call(who, 'POST', '/account/beneficiaries', {
        name: 'x',
        currency: 'trx',
        blockchain_key: 'tron-sim',
        data: { address: tronKey().address },
        ...fields,
      });
      expect(res.statusCode).toBe(422);
      return res.json().errors;
    };
    expect(await refused({ hosting: 'custodial' })).toEqual(['account.beneficiary.invalid_hosting']);
    expect(await refused({ hosting: 'provider' })).toEqual(['account.beneficiary.missing_provider']);
    expect(await refused({ hosting: 'provider', provider_id: 'nobody' })).toEqual([
      'account.beneficiary.invalid_provider',
    ]);
    expect(await refused({ hosting: 'self_hosted', provider_id: 'vistula' })).toEqual([
      'account.beneficiary.invalid_provider',
    ]);
    expect(await refused({ beneficiary_name: 'x'.repeat(141) })).toEqual([
      'account.beneficiary.invalid_beneficiary_name',
    ]);
  });
});

describe('proof of a self-hosted address', () => {
  it('refuses a withdrawal above the threshold until proved, and allows one at the threshold', async () => {
    const who = await member('unproved@travel.test');
    await credit(who, 'trx', 200n * TRX);
    const id = await saved(who, tronKey().address, selfHosted);
    const above = await withdraw(who, id, '51');
    expect(above.statusCode).toBe(422);
    expect(above.json()).toEqual({ errors: ['account.withdraw.address_unverified'], threshold_eur: '46.00' });
    // One cent above: 50.01087 TRX is EUR 46.0100004, i.e. 46.01.
    const cent = await withdraw(who, id, '50.01087');
    expect([cent.statusCode, cent.json().errors]).toEqual([422, ['account.withdraw.address_unverified']]);
    expect(balance(who, 'trx')).toEqual({ balance: 200n * TRX, locked: 0n });
    // 50.010869 TRX is EUR 46.0099995, rounded down to 46.00 cents: not above.
    const under = await withdraw(who, id, '50.010869');
    expect(under.statusCode, under.body).toBe(201);
    // EUR 46.00 exactly is not above EUR 46.
    const at = await withdraw(who, id, '50');
    expect(at.statusCode).toBe(201);
    const stored = await w.t.db.pool.query('select travel_rule_status from withdrawals where id = $1', [
      at.json().id,
    ]);
    // This member has no profile: the originator's name is missing, which the record says.
    expect(stored.rows[0].travel_rule_status).toBe('missing');
  });

  it('accepts a TronWeb signature of its own challenge, then lets the withdrawal through with its IVMS 101 record', async () => {
    const who = await member('proved@travel.test');
    await w.t.db.pool.query(
      `insert into profiles (user_id, first_name, last_name, country, city, dob, state)
       values ($1, 'Ewa', 'Zielinska', 'PL', 'Krakow', '1990-04-01', 'verified')`,
      [who.id],
    );
    await credit(who, 'trx', 300n * TRX);
    const key = tronKey();
    const id = await saved(who, key.address, selfHosted);
    const issued = await call(who, 'POST', `/account/beneficiaries/${id}/ownership_challenge`);
    expect(issued.statusCode).toBe(201);
    const challenge = issued.json();
    expect(challenge).toMatchObject({ address: key.address, method: 'tip191' });
    expect(challenge.message).toContain(key.address);
    const signature = await key.sign(challenge.message);
    const proved = await call(who, 'POST', `/account/beneficiaries/${id}/ownership_proof`, {
      challenge_id: challenge.challenge_id,
      signature,
    });
    expect(proved.statusCode).toBe(200);
    expect(proved.json().ownership_proved_at).not.toBeNull();
    const logged = await w.t.db.pool.query(
      `select data from activities where user_id = $1 and action = 'beneficiary.prove' and topic = 'beneficiary'`,
      [who.id],
    );
    expect(logged.rows.map((r) => r.data)).toEqual([
      expect.objectContaining({ id, address: key.address, currency: 'trx' }),
    ]);
    // A challenge is used once.
    const again = await call(who, 'POST', `/account/beneficiaries/${id}/ownership_proof`, {
      challenge_id: challenge.challenge_id,
      signature,
    });
    expect(again.json().errors).toEqual(['account.beneficiary.invalid_challenge']);

    const res = await withdraw(who, id, '120');
    expect(res.statusCode).toBe(201);
    const row = (
      await w.t.db.pool.query('select travel_rule, travel_rule_status from withdrawals where id = $1', [
        res.json().id,
      ])
    ).rows[0];
    expect(row.travel_rule_status).toBe('self_hosted');
    const uid = (await w.t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0].uid;
    expect(row.travel_rule).toEqual({
      originator: {
        originatorPersons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: [
                  { primaryIdentifier: 'Zielinska', secondaryIdentifier: 'Ewa', nameIdentifierType: 'LEGL' },
                ],
              },
              customerIdentification: uid,
              geographicAddress: [{ addressType: 'HOME', townName: 'Krakow', country: 'PL' }],
              countryOfResidence: 'PL',
              dateAndPlaceOfBirth: { dateOfBirth: '1990-04-01', placeOfBirth: 'Krakow' },
            },
          },
        ],
        accountNumber: [uid],
      },
      beneficiary: {
        beneficiaryPersons: [
          {
            naturalPerson: {
              name: { nameIdentifier: [{ primaryIdentifier: 'Jan Kowalski', nameIdentifierType: 'LEGL' }] },
            },
          },
        ],
        accountNumber: [key.address],
      },
      originatingVASP: {
        originatingVASP: {
          legalPerson: {
            name: {
              nameIdentifier: [{ legalPersonName: 'Exchange', legalPersonNameIdentifierType: 'LEGL' }],
            },
          },
        },
      },
    });
  });

  it("refuses another user's challenge, a proof made for another address, and a wrong key", async () => {
    const alice = await member('alice@travel.test');
    const bob = await member('bob@travel.test');
    const aliceKey = tronKey();
    const otherKey = tronKey();
    const aliceId = await saved(alice, aliceKey.address, selfHosted);
    const aliceOtherId = await saved(alice, otherKey.address, selfHosted);
    const bobKey = tronKey();
    const bobId = await saved(bob, bobKey.address, selfHosted);

    // Bob cannot ask for a challenge of Alice's address, nor prove it.
    expect(
      (await call(bob, 'POST', `/account/beneficiaries/${aliceId}/ownership_challenge`)).statusCode,
    ).toBe(404);
    const aliceChallenge = (
      await call(alice, 'POST', `/account/beneficiaries/${aliceId}/ownership_challenge`)
    ).json();
    const aliceSignature = await aliceKey.sign(aliceChallenge.message);
    const stolen = await call(bob, 'POST', `/account/beneficiaries/${bobId}/ownership_proof`, {
      challenge_id: aliceChallenge.challenge_id,
      signature: await bobKey.sign(aliceChallenge.message),
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().errors).toEqual(['account.beneficiary.invalid_challenge']);
    expect(
      (
        await call(bob, 'POST', `/account/beneficiaries/${aliceId}/ownership_proof`, {
          challenge_id: aliceChallenge.challenge_id,
          signature: aliceSignature,
        })
      ).statusCode,
    ).toBe(404);

    // A valid proof of one address does not prove another (the challenge names its address).
    const forOther = await call(alice, 'POST', `/account/beneficiaries/${aliceOtherId}/ownership_proof`, {
      challenge_id: aliceChallenge.challenge_id,
      signature: aliceSignature,
    });
    expect(forOther.json().errors).toEqual(['account.beneficiary.invalid_challenge']);
    const otherChallenge = (
      await call(alice, 'POST', `/account/beneficiaries/${aliceOtherId}/ownership_challenge`)
    ).json();
    const wrongKey = await call(alice, 'POST', `/account/beneficiaries/${aliceOtherId}/ownership_proof`, {
      challenge_id: otherChallenge.challenge_id,
      signature: await aliceKey.sign(otherChallenge.message),
    });
    expect(wrongKey.json().errors).toEqual(['account.beneficiary.invalid_signature']);
    expect(
      (await call(alice, 'GET', `/account/beneficiaries/${aliceOtherId}`)).json().ownership_proved_at,
    ).toBe(null);

    // Without a session nothing is issued.
    const anonymous = await w.t.app.inject({
      method: 'POST',
      url: `/api/v2/peatio/account/beneficiaries/${aliceId}/ownership_challenge`,
    });
    expect(anonymous.statusCode).toBe(401);
    // The right key proves the right address.
    const ok = await call(alice, 'POST', `/account/beneficiaries/${aliceId}/ownership_proof`, {
      challenge_id: aliceChallenge.challenge_id,
      signature: aliceSignature,
    });
    expect(ok.statusCode).toBe(200);
  });

  it("expires a challenge on the app's clock: tries count until its end, none after it", async () => {
    const who = await member('expiry@travel.test');
    const key = tronKey();
    const id = await saved(who, key.address, selfHosted);
    const challenge = (await call(who, 'POST', `/account/beneficiaries/${id}/ownership_challenge`)).json();
    const issued = Date.parse(/^Issued: (.+)$/m.exec(challenge.message)?.[1] ?? '');
    const minutes = 30; // TRAVEL_RULE_CHALLENGE_MINUTES' default
    expect(Date.parse(challenge.expires_at)).toBe(issued + minutes * 60_000);
    const prove = async (signature: string) =>
      call(who, 'POST', `/account/beneficiaries/${id}/ownership_proof`, {
        challenge_id: challenge.challenge_id,
        signature,
      });
    // Two seconds before its end it is still live: a wrong key's signature is checked (and refused).
    w.t.clock.set(Date.parse(challenge.expires_at) - 2_000);
    expect((await prove(await tronKey().sign(challenge.message))).json().errors).toEqual([
      'account.beneficiary.invalid_signature',
    ]);
    // Past its end even the right signature is refused; a new challenge then proves the address.
    w.t.clock.advance(4_000);
    expect((await prove(await key.sign(challenge.message))).json().errors).toEqual([
      'account.beneficiary.invalid_challenge',
    ]);
    const next = (await call(who, 'POST', `/account/beneficiaries/${id}/ownership_challenge`)).json();
    const ok = await call(who, 'POST', `/account/beneficiaries/${id}/ownership_proof`, {
      challenge_id: next.challenge_id,
      signature: await key.sign(next.message),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Math.abs(Date.parse(ok.json().ownership_proved_at) - w.t.clock.now())).toBeLessThan(60_000);
  });

  it('takes Bitcoin (bitcoinjs-message) and EVM (ethers) proofs, and needs none for a hosted address', async () => {
    const who = await member('chains@travel.test');
    const btcKey = secp256k1.utils.randomSecretKey();
    const regtest = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
    const btcAddress = p2wpkh(secp256k1.getPublicKey(btcKey, true), regtest).address as string;
    const btcId = await savedOffChain(w.t.db.pool, who, btcAddress, 'btc', 'btc-sim');
    const btcChallenge = (
      await call(who, 'POST', `/account/beneficiaries/${btcId}/ownership_challenge`)
    ).json();
    expect(btcChallenge.method).toBe('bip137');
    const btcSignature = bitcoinMessage
      .sign(btcChallenge.message, Buffer.from(btcKey), true, { segwitType: 'p2wpkh' })
      .toString('base64');
    const btcProof = await call(who, 'POST', `/account/beneficiaries/${btcId}/ownership_proof`, {
      challenge_id: btcChallenge.challenge_id,
      signature: btcSignature,
    });
    expect(btcProof.statusCode).toBe(200);

    const evm = Wallet.createRandom();
    const evmId = await savedOffChain(w.t.db.pool, who, evm.address, 'usdt', 'eth-devnet');
    const evmChallenge = (
      await call(who, 'POST', `/account/beneficiaries/${evmId}/ownership_challenge`)
    ).json();
    expect(evmChallenge.method).toBe('eip191');
    const evmProof = await call(who, 'POST', `/account/beneficiaries/${evmId}/ownership_proof`, {
      challenge_id: evmChallenge.challenge_id,
      signature: await evm.signMessage(evmChallenge.message),
    });
    expect(evmProof.statusCode).toBe(200);

    const hosted = await saved(who, tronKey().address, {
      beneficiary_name: 'Anna Nowak',
      hosting: 'provider',
      provider_id: 'nordwind',
    });
    const notNeeded = await call(who, 'POST', `/account/beneficiaries/${hosted}/ownership_challenge`);
    expect(notNeeded.json().errors).toEqual(['account.beneficiary.proof_not_needed']);
  });
});
