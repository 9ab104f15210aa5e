import { parseJsonKeeping } from '../json-scan.ts';

/**
 * JSON with exact decimals: Bitcoin Core's JSON carries BTC amounts as numbers (`0.10000000`), which a JS number
 * cannot always hold exactly. A number with a fraction or an exponent is kept as its source text
 * ({@link JsonDecimal}); integers become numbers.
 */

/** A JSON number with a fraction or exponent, as written. */
export class JsonDecimal {
  constructor(readonly text: string) {}
}

/** JSON.parse, with every non-integer number as a {@link JsonDecimal}. Throws SyntaxError as JSON.parse does. */
export function parseJson(text: string): unknown {
  return parseJsonKeeping(text, (literal) => (/[.eE]/.test(literal) ? new JsonDecimal(literal) : undefined));
}
