/** The pairs the swap form offers, and the amount field's typing rule. */

/** A market as far as swaps care: the two currencies it trades. */
export interface SwapMarket {
  base_unit: string;
  quote_unit: string;
}

/**
 * Currencies a swap from `from` can go to: those a market trades against it, either way round (a swap takes
 * its price from that market's book; a pair without a market has no price and is not offered).
 */
export function swapTargets(markets: readonly SwapMarket[], from: string): string[] {
  const out = new Set<string>();
  for (const m of markets) {
    if (m.base_unit === from) out.add(m.quote_unit);
    if (m.quote_unit === from) out.add(m.base_unit);
  }
  out.delete(from);
  return [...out];
}

/** Currencies a swap can start from: every currency some market trades, in the order of `currencies`. */
export function swapSources(markets: readonly SwapMarket[], currencies: readonly string[]): string[] {
  return currencies.filter((c) => swapTargets(markets, c).length > 0);
}

/**
 * The amount text as typed, when acceptable: digits with at most `precision` decimals (none when 0), a
 * leading dot read as "0.". Null when the keystroke is to be refused.
 */
export function typedSwapAmount(raw: string, precision: number): string | null {
  const next = raw.replace(/^\./, '0.');
  const pattern = precision > 0 ? new RegExp(`^\\d*(\\.\\d{0,${precision}})?$`) : /^\d*$/;
  return pattern.test(next) && next.length <= 40 ? next : null;
}
