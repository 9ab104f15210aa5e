/**
 * JSON with exact decimals: Bitcoin Core's JSON carries BTC amounts as numbers (`0.10000000`), which a JS number
 * cannot always hold exactly. A number with a fraction or an exponent is kept as its source text
 * ({@link JsonDecimal}); integers become numbers.
 */

/** A JSON number with a fraction or exponent, as written. */
export class JsonDecimal {
  constructor(readonly text: string) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const DECIMAL_MARK = '~dec~';

/** JSON.parse, with every non-integer number as a {@link JsonDecimal}. Throws SyntaxError as JSON.parse does. */
export function parseJson(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      // Copy the string as is, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) throw new SyntaxError(`bad number at ${i}`);
      const literal = match[0];
      out += /[.eE]/.test(literal) ? `"${DECIMAL_MARK}${literal}"` : literal;
      i += literal.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(DECIMAL_MARK)
      ? new JsonDecimal(value.slice(DECIMAL_MARK.length))
      : value,
  );
}
