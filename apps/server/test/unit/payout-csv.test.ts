import { describe, expect, it } from 'vitest';
import { decodeUtf8, parseCsv } from '../../src/modules/payouts/csv.ts';

/** The bounded CSV reader of mass payouts (issue 31, part 3). */
describe('parseCsv', () => {
  it('reads quotes, doubled quotes, commas and line breaks inside quotes, CRLF and LF', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""",z\n"two\nlines",,last\n';
    expect(parseCsv(text, 10)).toEqual({
      lines: [
        { line: 1, fields: ['a', 'b', 'c'] },
        { line: 2, fields: ['x, y', 'say "hi"', 'z'] },
        { line: 3, fields: ['two\nlines', '', 'last'] },
      ],
    });
  });

  it('skips blank lines but keeps their numbers, and reads a last line without a line end', () => {
    expect(parseCsv('h\n\n\nv\r\n\r\nw', 10)).toEqual({
      lines: [
        { line: 1, fields: ['h'] },
        { line: 4, fields: ['v'] },
        { line: 6, fields: ['w'] },
      ],
    });
    // A line of empty fields is not blank.
    expect(parseCsv(',\n', 10)).toEqual({ lines: [{ line: 1, fields: ['', ''] }] });
  });

  it('stops at one line past the limit, and refuses a quote left open', () => {
    expect(parseCsv('1\n2\n3\n', 3)).toMatchObject({ lines: [{}, {}, {}] });
    expect(parseCsv('1\n2\n3\n4\n5\n', 3)).toEqual({ failure: 'too_many_lines' });
    expect(parseCsv('a,"b\n', 3)).toEqual({ failure: 'unreadable' });
  });
});

describe('decodeUtf8', () => {
  it('drops a byte-order mark and refuses bytes that are not UTF-8', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFcurrency'))).toBe('currency');
    expect(decodeUtf8(Buffer.from([0x63, 0xff, 0xfe]))).toBeNull();
  });
});
