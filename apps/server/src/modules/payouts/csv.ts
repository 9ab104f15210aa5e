/** A line of a CSV file: its number in the file (the first line is 1) and its fields. */
export interface CsvLine {
  line: number;
  fields: string[];
}

/** Why a CSV text could not be read. */
export type CsvFailure = 'unreadable' | 'too_many_lines';

/**
 * Reads CSV text (RFC 4180: comma separated, fields optionally in double quotes with `""` for a quote, CRLF or LF
 * line ends) in one pass over the characters, keeping at most `maxLines` non-empty lines: one line more stops the
 * read with `too_many_lines`, so the work is bounded by the caller's byte limit and line limit, never by the
 * file. Blank lines are skipped (a spreadsheet's trailing ones); a quote left open is `unreadable`.
 */
export function parseCsv(text: string, maxLines: number): { lines: CsvLine[] } | { failure: CsvFailure } {
  const lines: CsvLine[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let lineNumber = 1;
  let startLine = 1;
  let touched = false;
  const endLine = (): boolean => {
    fields.push(field);
    const blank = fields.length === 1 && fields[0] === '' && !touched;
    if (!blank) lines.push({ line: startLine, fields });
    fields = [];
    field = '';
    touched = false;
    return lines.length <= maxLines;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') lineNumber++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      touched = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      touched = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (!endLine()) return { failure: 'too_many_lines' };
      lineNumber++;
      startLine = lineNumber;
    } else {
      field += c;
    }
  }
  if (quoted) return { failure: 'unreadable' };
  if (field !== '' || fields.length > 0 || touched) {
    if (!endLine()) return { failure: 'too_many_lines' };
  }
  return { lines };
}

/** The bytes as UTF-8 text without a byte-order mark; null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch {
    return null;
  }
}
