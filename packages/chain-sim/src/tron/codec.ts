import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { parseJsonKeeping } from '../json-scan.ts';

/**
 * Addresses and JSON as a java-tron node reads and writes them. An address is 21 bytes: 0x41 then the last 20
 * bytes of keccak256 of the uncompressed public key (without its 0x04 prefix). With `visible: true` the HTTP API
 * takes and gives them in Base58Check (`T…`), otherwise in hex (`41…`). Inside the simulator they are hex.
 */

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** Hex (41…, lower case) of a Base58Check or hex address, or null if it is neither. */
export function parseAddress(text: unknown, visible: boolean): string | null {
  if (typeof text !== 'string') return null;
  if (visible) {
    try {
      const bytes = base58check.decode(text);
      return bytes.length === 21 && bytes[0] === TRON_PREFIX ? bytesToHex(bytes) : null;
    } catch {
      return null;
    }
  }
  return /^41[0-9a-fA-F]{40}$/.test(text) ? text.toLowerCase() : null;
}

/** The Base58Check form of a hex address. */
export function toBase58(hexAddress: string): string {
  return base58check.encode(hexToBytes(hexAddress));
}

/** The hex address of an uncompressed (65-byte) secp256k1 public key. */
export function addressOfPublicKey(uncompressed: Uint8Array): string {
  const hash = keccak_256(uncompressed.subarray(1));
  return `41${bytesToHex(hash.subarray(12))}`;
}

/** sha256 as hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/**
 * Parses JSON keeping integers exact: a number of 16 digits or more (past 2^53) is turned into a decimal string
 * before `JSON.parse` sees it, so an int64 in sun never goes through a float. Strings are left untouched.
 */
export function parseJsonExact(text: string): unknown {
  return parseJsonKeeping(text, (literal) =>
    !/[.eE]/.test(literal) && literal.replace('-', '').length >= 16 ? literal : undefined,
  );
}

/** JSON text with bigint values written as plain JSON numbers (int64 fields as java-tron prints them). */
export function stringifyExact(value: unknown): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** An int64 field of a request: a JSON number or a decimal string of one. Null if it is not an integer. */
export function int64(value: unknown): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  return null;
}

/** Hex of UTF-8 text: how the node writes `message` fields when `visible` is false. */
export function utf8Hex(text: string): string {
  return bytesToHex(new TextEncoder().encode(text));
}

export { bytesToHex, hexToBytes };
