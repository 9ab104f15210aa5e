/** A JSON number literal, read from where the scanner stands. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Stands in, inside the rewritten text, for a literal that `keep` replaced; never valid in a request. */
const MARK = '\u0000kept:';

/**
 * JSON.parse that lets the simulators keep number literals exact: `keep(literal)` returns what to put in place of
 * a literal (a decimal amount, an int64 past 2^53) or undefined to let JSON read it as a number. Throws
 * SyntaxError as JSON.parse does. The simulators keep their own reader, apart from the product's adapters: a
 * stand-in that shared the code it stands in for could not catch that code's mistakes.
 */
export function parseJsonKeeping(text: string, keep: (literal: string) => unknown): unknown {
  const kept: unknown[] = [];
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
      const literal = NUMBER.exec(text)?.[0];
      if (!literal) throw new SyntaxError(`bad number at ${i}`);
      const value = keep(literal);
      // Written as an escape: a raw control character is not allowed inside a JSON string.
      out += value === undefined ? literal : `"\\u0000kept:${kept.push(value) - 1}"`;
      i += literal.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? kept[Number(value.slice(MARK.length))] : value,
  );
}
