import { createHash } from 'node:crypto';
import * as ecc from '@bitcoinerlab/secp256k1';
import * as bitcoin from 'bitcoinjs-lib';

bitcoin.initEccLib(ecc);

/**
 * A BIP-322 "simple" signature made the way a wallet makes one, with bitcoinjs-lib (its PSBT signer computes the
 * BIP-143 and BIP-341 digests) and tiny-secp256k1's API (@bitcoinerlab/secp256k1): the virtual `to_spend` paying
 * the address, a PSBT `to_sign` spending it to OP_RETURN, signed and finalised, and its first input's witness
 * encoded as a stack. None of the server's code is used, so a test checks our verifier against another's signer.
 */
export interface Bip322Key {
  /** The address on `network` (regtest unless given). */
  address: string;
  sign(message: string, sighashType?: number): string;
}

/** The message hash of BIP-322, computed here with node:crypto. */
function messageHash(message: string): Buffer {
  const tag = createHash('sha256').update('BIP0322-signed-message').digest();
  return createHash('sha256')
    .update(Buffer.concat([tag, tag, Buffer.from(message, 'utf8')]))
    .digest();
}

/** A key of `kind` (native SegWit or Taproot key path) from a 32-byte secret. */
export function bip322Key(
  kind: 'p2wpkh' | 'p2tr',
  secret: Uint8Array,
  network: bitcoin.Network = bitcoin.networks.regtest,
): Bip322Key {
  const pub = ecc.pointFromScalar(secret, true);
  if (!pub) throw new Error('not a secret key');
  const xOnly = pub.subarray(1, 33);
  let payment: bitcoin.Payment;
  let signer: bitcoin.Signer;
  if (kind === 'p2wpkh') {
    payment = bitcoin.payments.p2wpkh({ pubkey: pub, network });
    signer = { publicKey: pub, sign: (hash) => ecc.sign(hash, secret) };
  } else {
    payment = bitcoin.payments.p2tr({ internalPubkey: xOnly, network });
    // The key path signs with the internal key tweaked by its TapTweak (BIP-341), its Y made even first.
    const even = pub[0] === 0x03 ? ecc.privateNegate(secret) : secret;
    const tweaked = ecc.privateAdd(even, bitcoin.crypto.taggedHash('TapTweak', xOnly));
    const tweakedPub = tweaked && ecc.pointFromScalar(tweaked, true);
    if (!tweaked || !tweakedPub) throw new Error('tweak failed');
    signer = {
      publicKey: tweakedPub,
      sign: () => {
        throw new Error('Schnorr only');
      },
      signSchnorr: (hash) => ecc.signSchnorr(hash, tweaked),
    };
  }
  return psbtSigner(payment, [signer], kind === 'p2tr' ? { tapInternalKey: xOnly } : {}, network);
}

/**
 * A P2WSH address of `witnessScript` (bitcoinjs-lib's `payments.p2wsh`), signed by the keys of `secrets` in that
 * order; bitcoinjs-lib's finaliser builds the witness (for multisig: the empty dummy, the signatures in the
 * script's key order, the script).
 */
export function bip322WitnessScript(
  witnessScript: Uint8Array,
  secrets: Uint8Array[],
  network: bitcoin.Network = bitcoin.networks.regtest,
): Bip322Key {
  const payment = bitcoin.payments.p2wsh({
    redeem: { output: Buffer.from(witnessScript), network },
    network,
  });
  const signers = secrets.map((secret): bitcoin.Signer => {
    const pub = ecc.pointFromScalar(secret, true);
    if (!pub) throw new Error('not a secret key');
    return { publicKey: pub, sign: (hash) => ecc.sign(hash, secret) };
  });
  return psbtSigner(payment, signers, { witnessScript: Buffer.from(witnessScript) }, network);
}

/** The BIP-322 signer of a payment: `to_spend` pays it, a PSBT `to_sign` spends it, signed by `signers`. */
function psbtSigner(
  payment: bitcoin.Payment,
  signers: bitcoin.Signer[],
  input: { tapInternalKey?: Uint8Array; witnessScript?: Buffer },
  network: bitcoin.Network,
): Bip322Key {
  const script = payment.output;
  const address = payment.address;
  if (!script || !address) throw new Error('no script');
  return {
    address,
    sign(message, sighashType) {
      const toSpend = new bitcoin.Transaction();
      toSpend.version = 0;
      toSpend.addInput(
        Buffer.alloc(32),
        0xffffffff,
        0,
        Buffer.concat([Buffer.from([0x00, 0x20]), messageHash(message)]),
      );
      toSpend.addOutput(script, 0n);
      const toSign = new bitcoin.Psbt({ network });
      toSign.setVersion(0);
      toSign.addInput({
        hash: toSpend.getHash(),
        index: 0,
        sequence: 0,
        witnessUtxo: { script, value: 0n },
        ...input,
        ...(sighashType === undefined ? {} : { sighashType }),
      });
      toSign.addOutput({ script: Buffer.from([0x6a]), value: 0n });
      for (const signer of signers)
        toSign.signInput(0, signer, sighashType === undefined ? undefined : [sighashType]);
      toSign.finalizeAllInputs();
      const witness = toSign.extractTransaction().ins[0]?.witness ?? [];
      // Bitcoin's CompactSize lengths (a script of many keys is longer than 252 bytes).
      const size = (n: number) => (n < 0xfd ? Buffer.from([n]) : Buffer.from([0xfd, n & 0xff, n >> 8]));
      return Buffer.concat([
        size(witness.length),
        ...witness.flatMap((item) => [size(item.length), Buffer.from(item)]),
      ]).toString('base64');
    },
  };
}
