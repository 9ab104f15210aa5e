import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';

/** TRX has 6 decimals (sun); the USDT TRC-20 has 6 too. */
export const CHAIN_DECIMALS = 6;

/** A currency amount (its `precision`) in chain units (`decimals`); refuses what the chain cannot carry exactly. */
export function toChainUnits(amount: bigint, precision: number, decimals = CHAIN_DECIMALS): bigint {
  if (precision <= decimals) return amount * 10n ** BigInt(decimals - precision);
  const step = 10n ** BigInt(precision - decimals);
  if (amount % step !== 0n) throw new Error(`${amount} has more decimals than the chain carries`);
  return amount / step;
}

/** Chain units as a currency amount, rounded down where the currency has fewer decimals. */
export function fromChainUnits(raw: bigint, precision: number, decimals = CHAIN_DECIMALS): bigint {
  if (precision >= decimals) return raw * 10n ** BigInt(precision - decimals);
  return raw / 10n ** BigInt(decimals - precision);
}

/** Chain units as a currency amount, rounded up (a fee that must be covered). */
export function fromChainUnitsCeil(raw: bigint, precision: number, decimals = CHAIN_DECIMALS): bigint {
  if (precision >= decimals) return raw * 10n ** BigInt(precision - decimals);
  const step = 10n ** BigInt(decimals - precision);
  return (raw + step - 1n) / step;
}

const base58check = createBase58check(sha256);

/** The 20-byte account id (hex) of a Base58Check TRON address. */
export function accountId(address: string): string {
  return bytesToHex(base58check.decode(address).subarray(1));
}

/** An ABI word (32 bytes, hex) holding an address or a number. */
export function abiWord(value: string | bigint): string {
  return (typeof value === 'bigint' ? value.toString(16) : value).padStart(64, '0');
}

/** The 20-byte hex account id of an address as the node prints it: Base58Check, 41-hex or bare 20-byte hex. */
export function logAddressId(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  if (/^[0-9a-fA-F]{40}$/.test(text)) return text.toLowerCase();
  if (/^41[0-9a-fA-F]{40}$/.test(text)) return text.slice(2).toLowerCase();
  try {
    return accountId(text);
  } catch {
    return null;
  }
}
