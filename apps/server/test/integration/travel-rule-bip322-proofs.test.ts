import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { bip322Key, bip322WitnessScript } from '../support/bip322-signer.ts';
import { savedOffChain } from '../support/travel-rule.ts';
import { walletSuite } from '../support/wallet.ts';

/**
 * The travel rule's proof of a self-hosted Bitcoin address by a BIP-322 signature (issue 33 item 4), beside
 * travel-rule.test.ts: Taproot, native SegWit and P2WSH (a single key and a 2-of-2 multisig), each signed by
 * bitcoinjs-lib, and another key refused.
 */
const w = walletSuite({ TRAVEL_RULE_SELF_HOSTED_EUR: '46', CARD_EUR_PER_USDT: '0.92' });
const { member, call } = w;

describe('proof of a self-hosted Bitcoin address by BIP-322', () => {
  it('takes BIP-322 proofs (bitcoinjs-lib) for Taproot, native SegWit and P2WSH addresses, and refuses another key', async () => {
    const who = await member('bip322@travel.test');
    const saved = new Map<string, number>();
    const prove = async (address: string, sign: (message: string) => string) => {
      const id = saved.get(address) ?? (await savedOffChain(w.t.db.pool, who, address, 'btc', 'btc-sim'));
      saved.set(address, id);
      const challenge = (await call(who, 'POST', `/account/beneficiaries/${id}/ownership_challenge`)).json();
      const res = await call(who, 'POST', `/account/beneficiaries/${id}/ownership_proof`, {
        challenge_id: challenge.challenge_id,
        signature: sign(challenge.message),
      });
      return { method: challenge.method as string, res };
    };
    const taproot = bip322Key('p2tr', secp256k1.utils.randomSecretKey());
    const stranger = bip322Key('p2tr', secp256k1.utils.randomSecretKey());
    const wrong = await prove(taproot.address, (m) => stranger.sign(m));
    expect(wrong.method).toBe('bip322');
    expect(wrong.res.json().errors).toEqual(['account.beneficiary.invalid_signature']);
    const right = await prove(taproot.address, (m) => taproot.sign(m));
    expect(right.res.statusCode, right.res.body).toBe(200);
    expect(right.res.json().ownership_proved_at).not.toBeNull();
    const native = bip322Key('p2wpkh', secp256k1.utils.randomSecretKey());
    const segwit = await prove(native.address, (m) => native.sign(m));
    expect([segwit.method, segwit.res.statusCode]).toEqual(['bip137', 200]);
    // P2WSH: a single-key witness script and a 2-of-2 multisig, signed by bitcoinjs-lib; another key is refused.
    const [k1, k2] = [secp256k1.utils.randomSecretKey(), secp256k1.utils.randomSecretKey()];
    const single = bip322WitnessScript(Uint8Array.of(33, ...secp256k1.getPublicKey(k1, true), 0xac), [k1]);
    const wrongKey = await prove(single.address, (m) =>
      bip322WitnessScript(Uint8Array.of(33, ...secp256k1.getPublicKey(k2, true), 0xac), [k2]).sign(m),
    );
    expect([wrongKey.method, wrongKey.res.json().errors]).toEqual([
      'bip322',
      ['account.beneficiary.invalid_signature'],
    ]);
    const wsh = await prove(single.address, (m) => single.sign(m));
    expect([wsh.method, wsh.res.statusCode]).toEqual(['bip322', 200]);
    const pubs = [k1, k2].map((k) => secp256k1.getPublicKey(k, true));
    const multisig = bip322WitnessScript(
      Uint8Array.of(0x52, ...pubs.flatMap((p) => [33, ...p]), 0x52, 0xae),
      [k1, k2],
    );
    const both = await prove(multisig.address, (m) => multisig.sign(m));
    expect([both.method, both.res.statusCode], both.res.body).toEqual(['bip322', 200]);
    const stored = await w.t.db.pool.query(
      `select ownership_proof->>'method' as method from beneficiaries where address = $1`,
      [taproot.address],
    );
    expect(stored.rows[0].method).toBe('bip322');
  });
});
