import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import * as bitcoin from 'bitcoinjs-lib';
import { describe, expect, it } from 'vitest';
import {
  bip322MessageHash,
  decodeWitness,
  segwitScript,
  toSpendTxid,
  verifyBip322Simple,
} from '../../src/modules/compliance/travel-rule/bip322.ts';
import {
  proofMethod,
  segwitProgram,
  verifyAddressProof,
} from '../../src/modules/compliance/travel-rule/signatures.ts';
import { bip322Key, bip322WitnessScript } from '../support/bip322-signer.ts';

// BIP-322 simple signatures: the BIP's own test vectors, and signatures made in the test by bitcoinjs-lib's PSBT
// signer (test/support/bip322-signer.ts), never by our code.
const secret = (label: string) => createHash('sha256').update(label).digest();
const MESSAGE = 'Exchange: proof of control of a withdrawal address\nNonce: 0f3c';

/** The BIP's vectors: key L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k's native SegWit address. */
const BIP_P2WPKH = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';
const BIP_SIGNATURES: [string, string][] = [
  [
    '',
    'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  ],
  [
    '',
    'AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  ],
  [
    'Hello World',
    'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  ],
  [
    'Hello World',
    'AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  ],
];
/** The same key's Taproot address and its "Hello World" signature (the BIP's reference implementation tests). */
const BIP_P2TR = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3';
const BIP_P2TR_SIGNATURE =
  'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ==';

describe('BIP-322 test vectors', () => {
  it('hashes messages and builds to_spend as the BIP does', () => {
    expect(hex.encode(bip322MessageHash(''))).toBe(
      'c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1',
    );
    expect(hex.encode(bip322MessageHash('Hello World'))).toBe(
      'f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a',
    );
    const script = segwitScript(segwitProgram(BIP_P2WPKH) ?? { version: 0, program: new Uint8Array() });
    // Txids are shown in reverse byte order.
    const txid = (message: string) => hex.encode(toSpendTxid(bip322MessageHash(message), script).reverse());
    expect(txid('')).toBe('c5680aa69bb8d860bf82d4e9cd3504b55dde018de765a91bb566283c545a99a7');
    expect(txid('Hello World')).toBe('b79d196740ad5217771c1098fc4a4b51e0535c32236c71f1ea4d61a2d603352b');
  });

  it('accepts the published P2WPKH and Taproot signatures, and refuses them for another message', () => {
    for (const [message, signature] of BIP_SIGNATURES) {
      expect(verifyAddressProof(BIP_P2WPKH, message, signature), JSON.stringify(message)).toBe(true);
      expect(verifyAddressProof(BIP_P2WPKH, `${message}.`, signature)).toBe(false);
    }
    expect(verifyAddressProof(BIP_P2TR, 'Hello World', BIP_P2TR_SIGNATURE)).toBe(true);
    expect(verifyAddressProof(BIP_P2TR, 'Hello World - This should fail', BIP_P2TR_SIGNATURE)).toBe(false);
    // A signature for one address type proves nothing for the other address of the same key.
    expect(verifyAddressProof(BIP_P2TR, 'Hello World', BIP_SIGNATURES[2]?.[1] ?? '')).toBe(false);
    expect(verifyAddressProof(BIP_P2WPKH, 'Hello World', BIP_P2TR_SIGNATURE)).toBe(false);
  });
});

describe('BIP-322 signatures made by bitcoinjs-lib', () => {
  const native = bip322Key('p2wpkh', secret('native'));
  const taproot = bip322Key('p2tr', secret('taproot'));

  it('names the method of each address: BIP-322 for Taproot and P2WSH', () => {
    expect(proofMethod(taproot.address)).toBe('bip322');
    expect(proofMethod(native.address)).toBe('bip137');
    const script = bitcoin.payments.p2wsh({ redeem: { output: Buffer.from([0x51]) } }).address;
    expect(script).toMatch(/^bc1q.{58}$/);
    expect(proofMethod(script as string)).toBe('bip322');
  });

  it('accepts a native SegWit signature (ECDSA, SIGHASH_ALL) on any network', () => {
    expect(verifyAddressProof(native.address, MESSAGE, native.sign(MESSAGE))).toBe(true);
    const mainnet = bip322Key('p2wpkh', secret('native'), bitcoin.networks.bitcoin);
    expect(verifyAddressProof(mainnet.address, MESSAGE, native.sign(MESSAGE))).toBe(true);
  });

  it('accepts a Taproot key-path signature, with the default hash type and with SIGHASH_ALL', () => {
    expect(verifyAddressProof(taproot.address, MESSAGE, taproot.sign(MESSAGE))).toBe(true);
    const all = taproot.sign(MESSAGE, bitcoin.Transaction.SIGHASH_ALL);
    expect(base64.decode(all)).toHaveLength(67);
    expect(verifyAddressProof(taproot.address, MESSAGE, all)).toBe(true);
  });

  it('refuses another key, a changed message, and hash types other than SIGHASH_ALL', () => {
    const other = bip322Key('p2tr', secret('other'));
    expect(verifyAddressProof(other.address, MESSAGE, taproot.sign(MESSAGE))).toBe(false);
    expect(verifyAddressProof(taproot.address, `${MESSAGE} `, taproot.sign(MESSAGE))).toBe(false);
    expect(verifyAddressProof(native.address, `${MESSAGE} `, native.sign(MESSAGE))).toBe(false);
    const otherNative = bip322Key('p2wpkh', secret('other'));
    expect(verifyAddressProof(otherNative.address, MESSAGE, native.sign(MESSAGE))).toBe(false);
    expect(
      verifyAddressProof(taproot.address, MESSAGE, taproot.sign(MESSAGE, bitcoin.Transaction.SIGHASH_NONE)),
    ).toBe(false);
    const anyoneCanPay = bitcoin.Transaction.SIGHASH_ALL | bitcoin.Transaction.SIGHASH_ANYONECANPAY;
    expect(verifyAddressProof(native.address, MESSAGE, native.sign(MESSAGE, anyoneCanPay))).toBe(false);
  });

  it('refuses a high-S (malleated) signature, a loose encoding and extra witness data', () => {
    const program = segwitProgram(native.address);
    if (program?.version !== 0) throw new Error('not native segwit');
    const [der, key] = decodeWitness(base64.decode(native.sign(MESSAGE))) ?? [];
    if (!der || !key) throw new Error('no witness');
    const encode = (items: Uint8Array[]) =>
      base64.encode(Uint8Array.from([items.length, ...items.flatMap((i) => [i.length, ...i])]));
    expect(verifyBip322Simple(program, MESSAGE, encode([der, key]))).toBe(true);
    const sig = secp256k1.Signature.fromBytes(der.slice(0, -1), 'der');
    const high = new secp256k1.Signature(sig.r, secp256k1.Point.CURVE().n - sig.s);
    expect(
      verifyBip322Simple(program, MESSAGE, encode([Uint8Array.of(...high.toBytes('der'), 1), key])),
    ).toBe(false);
    // The same DER with a needless leading zero on r: valid for a lax parser, not under BIP-66.
    const r = der.slice(4, 4 + (der[3] ?? 0));
    const rest = der.slice(4 + r.length);
    const padded = Uint8Array.of(0x30, (der[1] ?? 0) + 1, 0x02, r.length + 1, 0x00, ...r, ...rest);
    expect(verifyBip322Simple(program, MESSAGE, encode([padded, key]))).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, encode([der, key, Uint8Array.of(1)]))).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, `${encode([der, key])}AA==`)).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, 'not base64!')).toBe(false);
    // An uncompressed key hashing to the program would not do either: segwit takes compressed keys only.
    const uncompressed = secp256k1.getPublicKey(secret('native'), false);
    expect(verifyBip322Simple(program, MESSAGE, encode([der, uncompressed]))).toBe(false);
  });

  it('refuses a Taproot script-path or annexed witness, and a key that is no point', () => {
    const program = segwitProgram(taproot.address);
    if (program?.version !== 1) throw new Error('not taproot');
    const [sig] = decodeWitness(base64.decode(taproot.sign(MESSAGE))) ?? [];
    if (!sig) throw new Error('no witness');
    const encode = (items: Uint8Array[]) =>
      base64.encode(Uint8Array.from([items.length, ...items.flatMap((i) => [i.length, ...i])]));
    expect(verifyBip322Simple(program, MESSAGE, encode([sig]))).toBe(true);
    expect(verifyBip322Simple(program, MESSAGE, encode([sig, Uint8Array.of(0x50, 1)]))).toBe(false);
    const notAPoint = { version: 1 as const, program: new Uint8Array(32).fill(0xff) };
    expect(verifyBip322Simple(notAPoint, MESSAGE, encode([sig]))).toBe(false);
  });
});

describe('BIP-322 signatures of P2WSH addresses, made by bitcoinjs-lib', () => {
  const pub = (label: string) => secp256k1.getPublicKey(secret(label), true);
  const encode = (items: Uint8Array[]) =>
    base64.encode(Uint8Array.from([items.length, ...items.flatMap((i) => [i.length, ...i])]));
  /** `<pubkey> OP_CHECKSIG`, as bitcoinjs-lib's p2pk payment writes it. */
  const singleScript = (label: string) => {
    const output = bitcoin.payments.p2pk({ pubkey: Buffer.from(pub(label)) }).output;
    if (!output) throw new Error('no script');
    return Uint8Array.from(output);
  };
  /** `OP_m <pubkey>… OP_n OP_CHECKMULTISIG`, as bitcoinjs-lib's p2ms payment writes it. */
  const multisigScript = (m: number, labels: string[]) => {
    const output = bitcoin.payments.p2ms({ m, pubkeys: labels.map((l) => Buffer.from(pub(l))) }).output;
    if (!output) throw new Error('no script');
    return Uint8Array.from(output);
  };

  it('accepts a single-key witness script signed by its key, on any network, and refuses another key', () => {
    const wallet = bip322WitnessScript(singleScript('wsh-single'), [secret('wsh-single')]);
    expect(wallet.address).toMatch(/^bcrt1q.{58}$/);
    expect(proofMethod(wallet.address)).toBe('bip322');
    const signature = wallet.sign(MESSAGE);
    expect(decodeWitness(base64.decode(signature))).toHaveLength(2);
    expect(verifyAddressProof(wallet.address, MESSAGE, signature)).toBe(true);
    const mainnet = bip322WitnessScript(
      singleScript('wsh-single'),
      [secret('wsh-single')],
      bitcoin.networks.bitcoin,
    );
    expect(verifyAddressProof(mainnet.address, MESSAGE, signature)).toBe(true);
    expect(verifyAddressProof(wallet.address, `${MESSAGE} `, signature)).toBe(false);
    // The script of another key (its own address), or this script signed by another key.
    const other = bip322WitnessScript(singleScript('wsh-other'), [secret('wsh-other')]);
    expect(verifyAddressProof(wallet.address, MESSAGE, other.sign(MESSAGE))).toBe(false);
    const [, script] = decodeWitness(base64.decode(signature)) ?? [];
    const [foreignSig] = decodeWitness(base64.decode(other.sign(MESSAGE))) ?? [];
    if (!script || !foreignSig) throw new Error('no witness');
    expect(verifyAddressProof(wallet.address, MESSAGE, encode([foreignSig, script]))).toBe(false);
    // A BIP-137 signature proves nothing for a script address.
    expect(verifyAddressProof(wallet.address, MESSAGE, base64.encode(new Uint8Array(65).fill(31)))).toBe(
      false,
    );
  });

  it('accepts a 2-of-3 multisig signed by any two of its keys, in key order', () => {
    const labels = ['ms-a', 'ms-b', 'ms-c'];
    const script = multisigScript(2, labels);
    const ab = bip322WitnessScript(script, [secret('ms-a'), secret('ms-b')]);
    const bc = bip322WitnessScript(script, [secret('ms-b'), secret('ms-c')]);
    const ac = bip322WitnessScript(script, [secret('ms-c'), secret('ms-a')]);
    expect(ab.address).toBe(bc.address);
    for (const signer of [ab, bc, ac]) {
      const signature = signer.sign(MESSAGE);
      const witness = decodeWitness(base64.decode(signature));
      // The empty dummy, two signatures, the script.
      expect(witness?.map((item) => item.length)[0]).toBe(0);
      expect(witness).toHaveLength(4);
      expect(verifyAddressProof(ab.address, MESSAGE, signature)).toBe(true);
    }
    expect(verifyAddressProof(ab.address, `${MESSAGE}!`, ab.sign(MESSAGE))).toBe(false);
    // A 3-of-3 of the same keys is another address; a 2-of-3 of other keys too.
    expect(
      verifyAddressProof(
        bip322WitnessScript(multisigScript(3, labels), []).address,
        MESSAGE,
        ab.sign(MESSAGE),
      ),
    ).toBe(false);
  });

  it('refuses one signature short, signatures out of key order or twice by one key, a non-empty dummy', () => {
    const script = multisigScript(2, ['ms-a', 'ms-b', 'ms-c']);
    const ab = bip322WitnessScript(script, [secret('ms-a'), secret('ms-b')]);
    const program = segwitProgram(ab.address);
    if (program?.version !== 0) throw new Error('not native segwit');
    const [dummy, sigA, sigB] = decodeWitness(base64.decode(ab.sign(MESSAGE))) ?? [];
    if (!dummy || !sigA || !sigB) throw new Error('no witness');
    expect(verifyBip322Simple(program, MESSAGE, encode([dummy, sigA, sigB, script]))).toBe(true);
    expect(verifyBip322Simple(program, MESSAGE, encode([dummy, sigA, script]))).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, encode([dummy, sigB, sigA, script]))).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, encode([dummy, sigA, sigA, script]))).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, encode([Uint8Array.of(0), sigA, sigB, script]))).toBe(false);
    expect(verifyBip322Simple(program, MESSAGE, encode([dummy, sigA, sigB, new Uint8Array(0), script]))).toBe(
      false,
    );
    // The witness script must be the one the address commits to.
    const other = multisigScript(2, ['ms-a', 'ms-b', 'ms-d']);
    expect(verifyBip322Simple(program, MESSAGE, encode([dummy, sigA, sigB, other]))).toBe(false);
    // A hash type other than SIGHASH_ALL.
    const none = ab.sign(MESSAGE, bitcoin.Transaction.SIGHASH_NONE);
    expect(verifyBip322Simple(program, MESSAGE, none)).toBe(false);
  });

  /** The P2WSH address of any script (bitcoinjs-lib's payment refuses to build some of those below). */
  const wshAddress = (script: Uint8Array) =>
    bitcoin.address.toBech32(Buffer.from(createHash('sha256').update(script).digest()), 0, 'bcrt');

  it('refuses witness scripts it does not interpret, even ones anyone could satisfy', () => {
    // OP_TRUE: spendable by an empty witness; a proof by it would prove nothing about the customer.
    const anyone = Uint8Array.of(0x51);
    const address = wshAddress(anyone);
    expect(verifyAddressProof(address, MESSAGE, encode([anyone]))).toBe(false);
    expect(verifyAddressProof(address, MESSAGE, encode([Uint8Array.of(1), anyone]))).toBe(false);
    // An uncompressed key in a single-key script (segwit v0 takes compressed keys only).
    const uncompressed = secp256k1.getPublicKey(secret('wsh-loose'), false);
    const loose = Uint8Array.of(65, ...uncompressed, 0xac);
    const looseAddress = wshAddress(loose);
    expect(verifyAddressProof(looseAddress, MESSAGE, encode([new Uint8Array(72), loose]))).toBe(false);
    // OP_CHECKSIGVERIFY, or m greater than n, are not the templates.
    const verify = Uint8Array.of(33, ...pub('wsh-single'), 0xad);
    expect(verifyAddressProof(wshAddress(verify), MESSAGE, encode([new Uint8Array(72), verify]))).toBe(false);
    const script = multisigScript(2, ['ms-a', 'ms-b']);
    const backwards = Uint8Array.from(script);
    backwards[0] = 0x53;
    expect(
      verifyAddressProof(
        wshAddress(backwards),
        MESSAGE,
        encode([new Uint8Array(0), new Uint8Array(72), new Uint8Array(72), new Uint8Array(72), backwards]),
      ),
    ).toBe(false);
  });
});
