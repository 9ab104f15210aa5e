import { type AddressKind, BTC_NETWORKS, validateAddress } from '@exchange/shared';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base64, bech32, bech32m, createBase58check, hex } from '@scure/base';
import { verifyMessage } from 'ethers';
import { type SegwitProgram, varint, verifyBip322Simple } from './bip322.ts';

/**
 * Proof that the customer controls a self-hosted address (Regulation (EU) 2023/1113, art. 14(5) and 16(2)): a
 * message we issued, signed with the address's key, in the format each chain's wallets produce. The server
 * recovers the signer from the signature and compares it with the saved address; nothing else is trusted.
 */

/** The signed-message formats we verify, one per address kind (Taproot addresses: BIP-322, see {@link proofMethod}). */
export const PROOF_METHODS = {
  btc: 'bip137',
  evm: 'eip191',
  tron: 'tip191',
} as const satisfies Record<AddressKind, string>;
export type ProofMethod = (typeof PROOF_METHODS)[AddressKind] | 'bip322';

const base58check = createBase58check(sha256);
const utf8 = (text: string) => new TextEncoder().encode(text);
const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes));
const sha256d = (bytes: Uint8Array) => sha256(sha256(bytes));

/** Which kind of address `address` is (checksum verified), or null for none we know. */
export function addressKind(address: string): AddressKind | null {
  if (validateAddress('evm', address)) return 'evm';
  if (validateAddress('tron', address)) return 'tron';
  if (validateAddress('btc', address, { btcNetworks: BTC_NETWORKS })) return 'btc';
  return null;
}

/**
 * The signed-message format an address proves control with, or null: BIP-137 for the Bitcoin addresses of a single
 * key's hash (legacy, nested and native SegWit; a native SegWit address also takes a BIP-322 simple signature),
 * BIP-322 simple for Taproot and for P2WSH (whose witness script is a single key or a multisig, see bip322.ts).
 */
export function proofMethod(address: string): ProofMethod | null {
  const kind = addressKind(address);
  if (!kind) return null;
  if (kind === 'btc') {
    try {
      if (btcAddressHash(address)) return PROOF_METHODS.btc;
      return segwitProgram(address) ? 'bip322' : null;
    } catch {
      return null;
    }
  }
  return PROOF_METHODS[kind];
}

/** Whether `signature` proves that the key of `address` signed `message` (false for anything malformed). */
export function verifyAddressProof(address: string, message: string, signature: string): boolean {
  try {
    const kind = addressKind(address);
    if (kind === 'evm') return verifyEip191(address, message, signature);
    if (kind === 'tron') return verifyTip191(address, message, signature);
    if (kind === 'btc') return verifyBitcoin(address, message, signature);
    return false;
  } catch {
    // A signature that does not parse or whose key cannot be recovered proves nothing.
    return false;
  }
}

/** EIP-191 `personal_sign` ("\x19Ethereum Signed Message:\n" + length), as MetaMask and ethers sign. */
export function verifyEip191(address: string, message: string, signature: string): boolean {
  return verifyMessage(message, signature.trim()).toLowerCase() === address.toLowerCase();
}

/** The digest Bitcoin wallets sign for a message: sha256d of the magic prefix and the message, each length-prefixed. */
export function bitcoinMessageHash(message: string): Uint8Array {
  const magic = utf8('Bitcoin Signed Message:\n');
  const body = utf8(message);
  return sha256d(Uint8Array.from([...varint(magic.length), ...magic, ...varint(body.length), ...body]));
}

/**
 * BIP-137: a base64 65-byte signature whose first byte says the recovery id and the address type (27–30 legacy
 * uncompressed, 31–34 legacy compressed, 35–38 P2SH-P2WPKH, 39–42 native P2WPKH). Electrum and others sign segwit
 * addresses with the legacy-compressed header, so for 31–34 any single-key address of the recovered key counts.
 * The network is not part of the proof: the hash in the address is compared, whichever network's prefix it has.
 */
export function verifyBip137(address: string, message: string, signature: string): boolean {
  const bytes = base64.decode(signature.trim());
  if (bytes.length !== 65) return false;
  const header = bytes[0] ?? 0;
  if (header < 27 || header > 42) return false;
  const recovery = (header - 27) & 3;
  const compressed = header >= 31;
  const point = secp256k1.Signature.fromBytes(bytes.slice(1), 'compact')
    .addRecoveryBit(recovery)
    .recoverPublicKey(bitcoinMessageHash(message));
  const keyHash = hash160(point.toBytes(compressed));
  const target = btcAddressHash(address);
  if (!target) return false;
  const nested = hash160(Uint8Array.of(0x00, 0x14, ...keyHash));
  const same = (a: Uint8Array, b: Uint8Array) => hex.encode(a) === hex.encode(b);
  if (header < 31) return target.type === 'p2pkh' && same(target.hash, keyHash);
  if (header < 35) {
    return (
      ((target.type === 'p2pkh' || target.type === 'p2wpkh') && same(target.hash, keyHash)) ||
      (target.type === 'p2sh' && same(target.hash, nested))
    );
  }
  if (header < 39) return target.type === 'p2sh' && same(target.hash, nested);
  return target.type === 'p2wpkh' && same(target.hash, keyHash);
}

/**
 * A Bitcoin proof: a BIP-322 simple signature (a witness stack) for native SegWit (P2WPKH, P2WSH) and Taproot
 * addresses, else BIP-137 (never for P2WSH or Taproot: no key hash to recover). The two cannot be taken for each
 * other: a BIP-137 signature is 65 bytes, a BIP-322 witness never is.
 */
function verifyBitcoin(address: string, message: string, signature: string): boolean {
  const program = segwitProgram(address);
  if (program && verifyBip322Simple(program, message, signature)) return true;
  return program?.version !== 1 && verifyBip137(address, message, signature);
}

/**
 * The witness program of a native SegWit (v0, bech32: a 20-byte key hash, or a 32-byte P2WSH script hash) or
 * Taproot (v1, bech32m, 32-byte key) address; null for any other address.
 */
export function segwitProgram(address: string): SegwitProgram | null {
  const lower = address.toLowerCase();
  if (!/^(bc|tb|bcrt)1/.test(lower)) return null;
  const v0 = bech32.decodeUnsafe(lower, 90);
  if (v0?.words[0] === 0) {
    const program = bech32.fromWords(v0.words.slice(1));
    return program.length === 20 || program.length === 32 ? { version: 0, program } : null;
  }
  const v1 = bech32m.decodeUnsafe(lower, 90);
  if (v1?.words[0] === 1) {
    const program = bech32m.fromWords(v1.words.slice(1));
    return program.length === 32 ? { version: 1, program } : null;
  }
  return null;
}

/** The type and 20-byte hash of a single-key Bitcoin address (Taproot and P2WSH have none: BIP-137 cannot sign them). */
function btcAddressHash(address: string): { type: 'p2pkh' | 'p2sh' | 'p2wpkh'; hash: Uint8Array } | null {
  if (/^(bc|tb|bcrt)1/i.test(address)) {
    const program = segwitProgram(address);
    return program?.version === 0 && program.program.length === 20
      ? { type: 'p2wpkh', hash: program.program }
      : null;
  }
  const payload = base58check.decode(address);
  if (payload.length !== 21) return null;
  const version = payload[0];
  if (version === 0x00 || version === 0x6f) return { type: 'p2pkh', hash: payload.slice(1) };
  if (version === 0x05 || version === 0xc4) return { type: 'p2sh', hash: payload.slice(1) };
  return null;
}

/** The digest TRON wallets sign (TIP-191, TronWeb `signMessageV2`): keccak256 of the prefix, the byte length, the message. */
export function tronMessageHash(message: string): Uint8Array {
  const body = utf8(message);
  return keccak_256(Uint8Array.from([...utf8(`\x19TRON Signed Message:\n${body.length}`), ...body]));
}

/**
 * TIP-191: a hex 65-byte signature r ‖ s ‖ v (v 27/28, or 0/1); the recovered key's TRON address is 0x41 and the
 * last 20 bytes of keccak256 of the uncompressed key, in Base58Check.
 */
export function verifyTip191(address: string, message: string, signature: string): boolean {
  const bytes = hex.decode(signature.trim().replace(/^0x/i, '').toLowerCase());
  if (bytes.length !== 65) return false;
  const v = bytes[64] ?? 0xff;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return false;
  const point = secp256k1.Signature.fromBytes(bytes.slice(0, 64), 'compact')
    .addRecoveryBit(recovery)
    .recoverPublicKey(tronMessageHash(message));
  const accountId = keccak_256(point.toBytes(false).slice(1)).slice(-20);
  return base58check.encode(Uint8Array.of(0x41, ...accountId)) === address;
}
