import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

/**
 * Blockchain address checks, shared by the server (chain adapters) and the web app (beneficiary form): the
 * checksum of each format is verified, so a typo or a made-up string of the right shape is refused.
 */

/** The address formats the exchange knows. */
export type AddressKind = 'tron' | 'btc' | 'evm';

/** A Bitcoin network: each has its own bech32 prefix (HRP) and Base58Check version bytes. */
export type BtcNetwork = 'mainnet' | 'testnet' | 'regtest';

/** Every Bitcoin network, for a check that cannot know which one a chain runs (the web form). */
export const BTC_NETWORKS: readonly BtcNetwork[] = ['mainnet', 'testnet', 'regtest'];

export interface AddressOptions {
  /** Bitcoin networks whose addresses are accepted; mainnet only when not given. */
  btcNetworks?: readonly BtcNetwork[];
}

const BTC_PARAMS: Record<BtcNetwork, { hrp: string; p2pkh: number; p2sh: number }> = {
  mainnet: { hrp: 'bc', p2pkh: 0x00, p2sh: 0x05 },
  testnet: { hrp: 'tb', p2pkh: 0x6f, p2sh: 0xc4 },
  regtest: { hrp: 'bcrt', p2pkh: 0x6f, p2sh: 0xc4 },
};

/** Base58Check: payload + the first 4 bytes of sha256(sha256(payload)). */
const base58check = createBase58check(sha256);
/** Version byte of a TRON account address (the `T` prefix in Base58). */
const TRON_VERSION = 0x41;
/** Length of a hash160 / TRON account id: the payload after the version byte. */
const HASH160_LENGTH = 20;
/** Longer than any Base58Check address we accept: refused before decoding (decoding is quadratic). */
const BASE58_MAX_LENGTH = 40;

/**
 * The canonical form of `address` if it is a valid address of `kind`, otherwise null. The text is taken as it
 * is: surrounding blanks make it invalid, so callers trim user input first.
 * - `tron`: Base58Check of version 0x41 and a 20-byte account id (starts with `T`); returned as given.
 * - `btc`: on the networks of `options.btcNetworks` (default mainnet), a segwit address (bech32 witness v0 of
 *   20 or 32 bytes, bech32m witness v1 of 32 bytes, i.e. Taproot), returned in lower case, or a legacy
 *   Base58Check P2PKH/P2SH address with the network's version byte. Witness versions 2 to 16 are refused:
 *   they are reserved for future upgrades, and coins sent there today could be lost.
 * - `evm`: `0x` + 40 hex digits; mixed case must match its EIP-55 checksum, all lower or all upper case is
 *   accepted. Returned with the EIP-55 checksum.
 */
export function validateAddress(
  kind: AddressKind,
  address: string,
  options: AddressOptions = {},
): string | null {
  if (kind === 'tron') return tronAddress(address);
  if (kind === 'evm') return evmAddress(address);
  return btcAddress(address, options.btcNetworks ?? ['mainnet']);
}

/** The TRON address of a 20-byte account id. */
export function encodeTronAddress(accountId: Uint8Array): string {
  if (accountId.length !== HASH160_LENGTH) throw new Error('a TRON account id has 20 bytes');
  return base58check.encode(Uint8Array.of(TRON_VERSION, ...accountId));
}

/** The native segwit (bech32, witness v0) P2WPKH address of a 20-byte public-key hash on `network`. */
export function encodeP2wpkhAddress(network: BtcNetwork, keyHash: Uint8Array): string {
  if (keyHash.length !== HASH160_LENGTH) throw new Error('a P2WPKH key hash has 20 bytes');
  return bech32.encode(BTC_PARAMS[network].hrp, [0, ...bech32.toWords(keyHash)]);
}

/** The payload of a Base58Check string with its checksum verified, or null. */
function decodeBase58check(text: string): Uint8Array | null {
  if (text.length > BASE58_MAX_LENGTH) return null;
  try {
    return base58check.decode(text);
  } catch {
    return null;
  }
}

function tronAddress(text: string): string | null {
  const payload = decodeBase58check(text);
  return payload?.length === HASH160_LENGTH + 1 && payload[0] === TRON_VERSION ? text : null;
}

function btcAddress(text: string, networks: readonly BtcNetwork[]): string | null {
  return segwitAddress(text, networks) ?? legacyBtcAddress(text, networks);
}

/** A bech32 (v0) or bech32m (v1) segwit address with one of the networks' HRPs, in lower case. */
function segwitAddress(text: string, networks: readonly BtcNetwork[]): string | null {
  const asBech32 = bech32.decodeUnsafe(text) || null;
  const decoded = asBech32 ?? (bech32m.decodeUnsafe(text) || null);
  if (!decoded || !networks.some((n) => BTC_PARAMS[n].hrp === decoded.prefix)) return null;
  const [version, ...words] = decoded.words;
  // BIP-350: witness v0 carries a bech32 checksum, every later version a bech32m one.
  if ((version === 0) !== (asBech32 !== null)) return null;
  const program = bech32.fromWordsUnsafe(words);
  if (!program) return null;
  const standard =
    (version === 0 && (program.length === 20 || program.length === 32)) ||
    (version === 1 && program.length === 32);
  return standard ? text.toLowerCase() : null;
}

/** A Base58Check P2PKH or P2SH address with one of the networks' version bytes. */
function legacyBtcAddress(text: string, networks: readonly BtcNetwork[]): string | null {
  const payload = decodeBase58check(text);
  if (payload?.length !== HASH160_LENGTH + 1) return null;
  const version = payload[0];
  return networks.some((n) => BTC_PARAMS[n].p2pkh === version || BTC_PARAMS[n].p2sh === version)
    ? text
    : null;
}

function evmAddress(text: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return null;
  const digits = text.slice(2);
  const checksummed = eip55(digits.toLowerCase());
  const oneCase = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  return oneCase || checksummed === text ? checksummed : null;
}

/** EIP-55: a hex letter is upper case where the matching nibble of keccak256(lower-case hex) is 8 or more. */
function eip55(lowerHex: string): string {
  const hash = keccak_256(new TextEncoder().encode(lowerHex));
  let out = '0x';
  for (let i = 0; i < lowerHex.length; i++) {
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    const char = lowerHex[i] ?? '';
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out;
}
