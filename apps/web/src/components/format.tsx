/** Display helpers used across features: exact decimal units, truncated amounts, dates in the user's time zone. */
import { formatUnits, parseUnits } from '@exchange/shared';
import { Text, Tooltip } from '@mantine/core';

/** Working scale for exact decimal arithmetic on display values (enough for every currency's precision). */
export const SCALE = 18;

/** A decimal string as integer units at `scale`, extra decimals truncated; 0 for anything unparsable. */
export function units(text: string | null | undefined, scale = SCALE): bigint {
  if (!text) return 0n;
  const [whole = '', fraction = ''] = text.trim().split('.');
  const result = parseUnits(fraction ? `${whole || '0'}.${fraction.slice(0, scale)}` : whole, scale);
  return result.ok ? result.units : 0n;
}

/** price * amount, exact, as a decimal string. */
export function multiply(a: string | null | undefined, b: string | null | undefined): string {
  return formatUnits(units(a) * units(b), SCALE * 2);
}

/** Keeps at most `decimals` decimals (truncation, never rounding up), at least `min` shown. */
export function fixed(text: string, decimals: number, min = 0): string {
  return formatUnits(units(text, decimals), decimals, min);
}

/** Values longer than 8 characters are cut with an ellipsis; the tooltip shows them whole (docs/trading.md#constants). */
export function Amount({ value, c }: { value: string | null | undefined; c?: string }) {
  const text = value ?? '';
  if (text.length <= 8)
    return (
      <Text span inherit c={c}>
        {text}
      </Text>
    );
  return (
    <Tooltip label={text}>
      <Text span inherit c={c}>
        {`${text.slice(0, 8)}…`}
      </Text>
    </Tooltip>
  );
}

/** Rounds a decimal string to `decimals` places, half away from zero (exact: integer units, no float). */
export function rounded(text: string, decimals: number): string {
  const exact = units(text);
  const step = 10n ** BigInt(SCALE - Math.min(decimals, SCALE));
  const sign = exact < 0n ? -1n : 1n;
  const magnitude = exact * sign;
  const whole = ((magnitude + step / 2n) / step) * sign;
  return formatUnits(whole, Math.min(decimals, SCALE));
}

/**
 * An amount rounded to its currency's precision, shown whole (not cut at 8 characters); the exact value as
 * given is in a tooltip on hover (and in `data-value`).
 */
export function RoundedAmount({
  value,
  decimals,
  testId,
}: {
  value: string;
  decimals: number;
  testId?: string;
}) {
  return (
    <Tooltip label={value}>
      <Text span inherit data-testid={testId} data-value={value}>
        {rounded(value, decimals)}
      </Text>
    </Tooltip>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** DD/MM HH:mm in the user's time zone. */
export function shortDate(value: string | number | Date): string {
  const d = new Date(value);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** DD/MM/YYYY HH:mm:ss in the user's time zone. */
export function longDate(value: string | number | Date): string {
  const d = new Date(value);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** HH:mm:ss in the user's time zone (recent trades). */
export function timeOnly(value: string | number | Date): string {
  const d = new Date(value);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** YYYY-MM-DD , HH:mm:ss in the user's time zone (docs/trading.md#constants). */
export function isoDate(value: string | number | Date): string {
  const d = new Date(value);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} , ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
