/**
 * Exact conversion between a chain's raw units (wei, an ERC-20's smallest unit: `decimals`) and the currency's
 * units (`precision` in the currencies table). Bigint only; nothing is ever rounded up.
 */

function scale(from: number, to: number): bigint {
  return 10n ** BigInt(Math.abs(to - from));
}

/**
 * Raw chain units to currency units, rounding *down* when the currency is less precise than the chain:
 * a deposit of 1.0000000000000000001 eth at precision 8 is credited as 1.00000000, never more than arrived.
 */
export function fromChainUnits(raw: bigint, decimals: number, precision: number): bigint {
  if (precision >= decimals) return raw * scale(decimals, precision);
  return raw / scale(decimals, precision);
}

/**
 * Currency units to raw chain units. Throws when the chain cannot carry the amount exactly (a currency more
 * precise than its token): sending a rounded amount would move a different sum than the one asked for.
 */
export function toChainUnits(amount: bigint, decimals: number, precision: number): bigint {
  if (precision <= decimals) return amount * scale(precision, decimals);
  const factor = scale(precision, decimals);
  if (amount % factor !== 0n) {
    throw new Error(`amount ${amount} has more digits than the token's ${decimals} decimals`);
  }
  return amount / factor;
}
