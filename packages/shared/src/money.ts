/**
 * Exact decimal <-> integer-unit conversion. Amounts live as bigint counts of a currency's smallest unit;
 * decimal strings appear only at the edges (wire, SQL). No JS number ever holds an amount.
 */

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/** Why a decimal string was refused by {@link parseUnits}. */
export type ParseUnitsError = 'invalid' | 'too_precise';

/** Result of {@link parseUnits}: the integer units, or the reason the input was refused. */
export type ParseUnitsResult = { ok: true; units: bigint } | { ok: false; error: ParseUnitsError };

/**
 * Parses a non-negative decimal string into integer units at `precision` decimals.
 * Excess precision is refused, never rounded: "0.123" at precision 2 is `too_precise`.
 */
export function parseUnits(text: string, precision: number): ParseUnitsResult {
  const match = DECIMAL.exec(text.trim());
  if (!match) return { ok: false, error: 'invalid' };
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > precision) return { ok: false, error: 'too_precise' };
  return { ok: true, units: BigInt(whole + fraction.padEnd(precision, '0')) };
}

/** Like {@link parseUnits} but throws; for trusted input such as seed data and SQL results. */
export function toUnits(text: string, precision: number): bigint {
  const negative = text.startsWith('-');
  const result = parseUnits(negative ? text.slice(1) : text, precision);
  if (!result.ok)
    throw new Error(`cannot convert "${text}" to units at precision ${precision}: ${result.error}`);
  return negative ? -result.units : result.units;
}

/**
 * Formats integer units as a decimal string with trailing zeros trimmed ("1.5", "0", "-0.25").
 * Pass `minDecimals` to keep a fixed number of decimals for display.
 */
export function formatUnits(units: bigint, precision: number, minDecimals = 0): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(precision + 1, '0');
  const whole = digits.slice(0, digits.length - precision);
  let fraction = precision > 0 ? digits.slice(digits.length - precision).replace(/0+$/, '') : '';
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && units !== 0n ? `-${text}` : text;
}
