import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';

/**
 * BIP-322 "simple" signatures (the generic signed message format) for segwit outputs: native P2WPKH (segwit v0,
 * ECDSA), P2WSH whose witness script is one of the two standard templates (a single key, `<pubkey> OP_CHECKSIG`,
 * or bare multisig, `OP_m <pubkey>… OP_n OP_CHECKMULTISIG`; ECDSA) and Taproot key-path spends (segwit v1,
 * BIP-340 Schnorr). Written from the BIP's text: the message is committed to by a virtual transaction `to_spend`
 * paying the address's scriptPubKey, and the signature is the witness that spends it in a second virtual
 * transaction `to_sign`; the proof is valid when that witness satisfies the address's script under the consensus
 * rules and BIP-322's required rules (SIGHASH_ALL only, strict low-S DER, compressed keys, an empty multisig
 * dummy, a clean stack). Scripts we do not interpret (any other witness script, Taproot script paths) are not
 * accepted.
 */

/**
 * The witness program of a segwit address: version 0 with a 20-byte key hash (P2WPKH) or a 32-byte script hash
 * (P2WSH), or version 1 with a 32-byte key (Taproot).
 */
export type SegwitProgram = { version: 0; program: Uint8Array } | { version: 1; program: Uint8Array };

const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256d = (bytes: Uint8Array) => sha256(sha256(bytes));
const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u32le = (n: number) => Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
/** An amount of 0 satoshis: every output of both virtual transactions. */
const ZERO_AMOUNT = new Uint8Array(8);
/** `to_sign`'s only output script: OP_RETURN. */
const OP_RETURN_SCRIPT = Uint8Array.of(0x6a);
const SIGHASH_ALL = 0x01;

/** Bitcoin's CompactSize length prefix. */
export function varint(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return Uint8Array.of(0xfe, ...u32le(n));
}

/** A script or other byte string as transactions serialise it: its length, then the bytes. */
const withLength = (bytes: Uint8Array) => concat(varint(bytes.length), bytes);

/** BIP-340's tagged hash: sha256(sha256(tag) ‖ sha256(tag) ‖ data). */
export function taggedHash(tag: string, ...data: Uint8Array[]): Uint8Array {
  const t = sha256(utf8(tag));
  return sha256(concat(t, t, ...data));
}

/** The message's hash as `to_spend` commits to it: the tagged hash under `BIP0322-signed-message`. */
export function bip322MessageHash(message: string): Uint8Array {
  return taggedHash('BIP0322-signed-message', utf8(message));
}

/** The scriptPubKey a segwit program is paid to: OP_n, then a push of the program. */
export function segwitScript(p: SegwitProgram): Uint8Array {
  return concat(Uint8Array.of(p.version === 0 ? 0x00 : 0x51, p.program.length), p.program);
}

/**
 * The txid of `to_spend` (as bytes in the order a prevout names it): version 0; one input spending
 * 000…000:FFFFFFFF with scriptSig `OP_0 PUSH32 message_hash` and sequence 0; one output of 0 paying
 * `scriptPubKey`; lock time 0. Serialised without witness, double SHA-256.
 */
export function toSpendTxid(messageHash: Uint8Array, scriptPubKey: Uint8Array): Uint8Array {
  return sha256d(
    concat(
      u32le(0),
      varint(1),
      new Uint8Array(32),
      u32le(0xffffffff),
      withLength(concat(Uint8Array.of(0x00, 0x20), messageHash)),
      u32le(0),
      varint(1),
      ZERO_AMOUNT,
      withLength(scriptPubKey),
      u32le(0),
    ),
  );
}

/** A consensus-encoded witness stack (a count, then each item with its length), or null unless exactly that. */
export function decodeWitness(bytes: Uint8Array): Uint8Array[] | null {
  let at = 0;
  const readSize = (): number | null => {
    const first = bytes[at];
    if (first === undefined) return null;
    at += 1;
    if (first < 0xfd) return first;
    const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    if (at + width > bytes.length) return null;
    let n = 0;
    for (let i = width - 1; i >= 0; i--) n = n * 256 + (bytes[at + i] ?? 0);
    at += width;
    // Sizes are encoded minimally; anything larger than the input is not a witness of it.
    const minimum = width === 2 ? 0xfd : width === 4 ? 0x10000 : 0x100000000;
    return n < minimum || n > bytes.length ? null : n;
  };
  const count = readSize();
  if (count === null) return null;
  const items: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const length = readSize();
    if (length === null || at + length > bytes.length) return null;
    items.push(bytes.slice(at, at + length));
    at += length;
  }
  return at === bytes.length ? items : null;
}

/** The outpoint `to_sign` spends: `to_spend`'s output 0. */
const outpointOf = (txid: Uint8Array) => concat(txid, u32le(0));
/** `to_sign`'s outputs, serialised: one output of 0 to OP_RETURN. */
const TO_SIGN_OUTPUTS = concat(ZERO_AMOUNT, withLength(OP_RETURN_SCRIPT));

/** The BIP-143 script code of a P2WPKH input: the key hash's P2PKH script. */
const p2wpkhScriptCode = (keyHash: Uint8Array) =>
  concat(Uint8Array.of(0x76, 0xa9, 0x14), keyHash, Uint8Array.of(0x88, 0xac));

/**
 * BIP-143's digest of `to_sign` for its segwit v0 input under SIGHASH_ALL: version 0, the one prevout and
 * sequence, the script code (P2WPKH: the key hash's P2PKH script; P2WSH: the witness script, which holds no
 * OP_CODESEPARATOR in the templates we take), the spent amount 0, the OP_RETURN output, lock time 0.
 */
function segwitV0Sighash(txid: Uint8Array, scriptCode: Uint8Array): Uint8Array {
  return sha256d(
    concat(
      u32le(0),
      sha256d(outpointOf(txid)),
      sha256d(u32le(0)),
      outpointOf(txid),
      withLength(scriptCode),
      ZERO_AMOUNT,
      u32le(0),
      sha256d(TO_SIGN_OUTPUTS),
      u32le(0),
      u32le(SIGHASH_ALL),
    ),
  );
}

/**
 * BIP-341's digest of `to_sign` for a key-path spend of its one input (no annex), with `hashType` 0x00
 * (SIGHASH_DEFAULT) or 0x01 (SIGHASH_ALL): epoch 0, the hash type, version and lock time 0, the single-SHA-256
 * commitments to the prevouts, amounts, spent scripts, sequences and outputs, spend type 0, input index 0.
 */
function taprootSighash(txid: Uint8Array, scriptPubKey: Uint8Array, hashType: number): Uint8Array {
  return taggedHash(
    'TapSighash',
    Uint8Array.of(0x00, hashType),
    u32le(0),
    u32le(0),
    sha256(outpointOf(txid)),
    sha256(ZERO_AMOUNT),
    sha256(withLength(scriptPubKey)),
    sha256(u32le(0)),
    sha256(TO_SIGN_OUTPUTS),
    Uint8Array.of(0x00),
    u32le(0),
  );
}

/**
 * A strictly DER-encoded ECDSA signature (BIP-66: one SEQUENCE of two positive INTEGERs, each minimally
 * encoded), as r ‖ s of 32 bytes each; null for any other encoding.
 */
export function strictDer(der: Uint8Array): Uint8Array | null {
  if (der.length < 8 || der.length > 72 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const integer = (at: number): { value: Uint8Array; next: number } | null => {
    const length = der[at + 1] ?? 0;
    const start = at + 2;
    if (der[at] !== 0x02 || length === 0 || start + length > der.length) return null;
    const value = der.slice(start, start + length);
    const first = value[0] ?? 0;
    // Negative, or a leading zero that the next byte does not need.
    if (first & 0x80) return null;
    if (first === 0 && length > 1 && !((value[1] ?? 0) & 0x80)) return null;
    const digits = first === 0 && length > 1 ? value.slice(1) : value;
    return digits.length > 32 ? null : { value: digits, next: start + length };
  };
  const r = integer(2);
  const s = r && integer(r.next);
  if (!r || !s || s.next !== der.length) return null;
  const out = new Uint8Array(64);
  out.set(r.value, 32 - r.value.length);
  out.set(s.value, 64 - s.value.length);
  return out;
}

/**
 * Whether `signature` (base64 of a witness stack) is a valid BIP-322 simple signature of `message` by the
 * segwit `address` program: for P2WPKH the stack is a low-S strict-DER SIGHASH_ALL signature and the compressed
 * key whose hash160 is the program; for P2WSH, the signatures its witness script asks for and the script (see
 * {@link witnessScriptKeys}); for Taproot it is one BIP-340 signature (64 bytes, or 65 ending in SIGHASH_ALL) by
 * the program's output key. False for anything else, malformed input included.
 */
export function verifyBip322Simple(address: SegwitProgram, message: string, signature: string): boolean {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(signature.trim());
  } catch {
    return false;
  }
  const witness = decodeWitness(bytes);
  if (!witness) return false;
  try {
    return satisfies(address, message, witness);
  } catch {
    // A key or signature that is no point or scalar of the curve proves nothing.
    return false;
  }
}

/** Whether `witness` spends `to_spend` for `message` paid to `address` (see {@link verifyBip322Simple}). */
function satisfies(address: SegwitProgram, message: string, witness: Uint8Array[]): boolean {
  const scriptPubKey = segwitScript(address);
  const txid = toSpendTxid(bip322MessageHash(message), scriptPubKey);
  if (address.version === 0 && address.program.length === 32)
    return satisfiesP2wsh(address.program, txid, witness);
  if (address.version === 0) {
    const [sig, key] = witness;
    if (witness.length !== 2 || !sig || !key || address.program.length !== 20) return false;
    if (!compressedKey(key) || !equal(hash160(key), address.program)) return false;
    return checkSig(sig, key, segwitV0Sighash(txid, p2wpkhScriptCode(address.program)));
  }
  // Key path only: one item (a second would be a script path's, or an annex).
  const [sig] = witness;
  if (witness.length !== 1 || !sig || address.program.length !== 32) return false;
  if (sig.length !== 64 && !(sig.length === 65 && sig[64] === SIGHASH_ALL)) return false;
  const hashType = sig.length === 65 ? SIGHASH_ALL : 0x00;
  return schnorr.verify(sig.slice(0, 64), taprootSighash(txid, scriptPubKey, hashType), address.program);
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Segwit v0 takes compressed keys only (33 bytes, 02 or 03 first). */
const compressedKey = (key: Uint8Array) => key.length === 33 && (key[0] === 0x02 || key[0] === 0x03);

/** A low-S, strictly DER-encoded ECDSA signature ending in SIGHASH_ALL, by `key`, of `digest`. */
function checkSig(sig: Uint8Array, key: Uint8Array, digest: Uint8Array): boolean {
  if (sig[sig.length - 1] !== SIGHASH_ALL) return false;
  const compact = strictDer(sig.slice(0, -1));
  if (!compact) return false;
  return secp256k1.verify(compact, digest, key, { prehash: false, lowS: true });
}

const OP_CHECKSIG = 0xac;
const OP_CHECKMULTISIG = 0xae;
/** OP_1 … OP_16: the small numbers a multisig script's m and n are written with. */
const smallNumber = (op: number | undefined) =>
  op !== undefined && op >= 0x51 && op <= 0x60 ? op - 0x50 : null;

/**
 * The keys a witness script asks signatures of, and how many: `<33-byte key> OP_CHECKSIG` (one of one), or
 * `OP_m <33-byte key>×n OP_n OP_CHECKMULTISIG` with 1 ≤ m ≤ n ≤ 16. Null for any other script.
 */
export function witnessScriptKeys(script: Uint8Array): { required: number; keys: Uint8Array[] } | null {
  if (script.length === 35 && script[0] === 33 && script[34] === OP_CHECKSIG) {
    const key = script.slice(1, 34);
    return compressedKey(key) ? { required: 1, keys: [key] } : null;
  }
  const m = smallNumber(script[0]);
  const n = smallNumber(script[script.length - 2]);
  if (m === null || n === null || m > n || script[script.length - 1] !== OP_CHECKMULTISIG) return null;
  if (script.length !== 3 + 34 * n) return null;
  const keys: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const at = 1 + 34 * i;
    if (script[at] !== 33) return null;
    const key = script.slice(at + 1, at + 34);
    if (!compressedKey(key)) return null;
    keys.push(key);
  }
  return { required: m, keys };
}

/**
 * Whether `witness` spends a P2WSH output of `scriptHash` for the message of `txid`: its last item is the witness
 * script, whose SHA-256 is the program and which is one of {@link witnessScriptKeys}' templates; before it, the
 * one signature of a single-key script, or for multisig the empty dummy item OP_CHECKMULTISIG consumes (NULLDUMMY)
 * and exactly m signatures, in the order of their keys, each by a distinct key (as OP_CHECKMULTISIG matches them).
 */
function satisfiesP2wsh(scriptHash: Uint8Array, txid: Uint8Array, witness: Uint8Array[]): boolean {
  const script = witness[witness.length - 1];
  if (!script || !equal(sha256(script), scriptHash)) return false;
  const template = witnessScriptKeys(script);
  if (!template) return false;
  const digest = segwitV0Sighash(txid, script);
  const single = script[script.length - 1] === OP_CHECKSIG;
  if (single) {
    const [sig, key] = [witness[0], template.keys[0]];
    return witness.length === 2 && sig !== undefined && key !== undefined && checkSig(sig, key, digest);
  }
  if (witness.length !== template.required + 2 || witness[0]?.length !== 0) return false;
  const sigs = witness.slice(1, -1);
  let key = 0;
  for (const sig of sigs) {
    // Each signature is checked against the keys left, in order; a key is used once.
    while (key < template.keys.length && !checkSig(sig, template.keys[key] as Uint8Array, digest)) key += 1;
    if (key === template.keys.length) return false;
    key += 1;
  }
  return true;
}
