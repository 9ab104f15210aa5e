import { describe, expect, it } from 'vitest';
import { csvCell, csvOf, jsonOf, type Section } from '../../src/modules/data-export/files.ts';

const section = (batches: Record<string, unknown>[][]): Section => ({
  name: 'x',
  columns: ['a', 'b'],
  async *batches() {
    for (const b of batches) yield b;
  },
});
const text = async (chunks: AsyncIterable<Buffer>) => {
  const out: Buffer[] = [];
  for await (const c of chunks) out.push(c);
  return Buffer.concat(out).toString('utf8');
};

describe('the export files', () => {
  it('quotes CSV cells per RFC 4180, keeps negative amounts, defuses formulas, writes times in UTC', () => {
    expect(csvCell('-1.5')).toBe('-1.5');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('@sum')).toBe("'@sum");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('2026-01-02T03:04:05.000Z');
    expect(csvCell({ address: 'x' })).toBe('"{""address"":""x""}"');
  });

  it('writes CSV and a JSON array batch by batch, the same rows in both', async () => {
    const s = section([[{ a: '0.1', b: 1 }], [{ a: '2', b: null }]]);
    expect(await text(csvOf(s))).toBe('a,b\r\n0.1,1\r\n2,\r\n');
    expect(JSON.parse(await text(jsonOf(s)))).toEqual([
      { a: '0.1', b: 1 },
      { a: '2', b: null },
    ]);
    expect(JSON.parse(await text(jsonOf(section([]))))).toEqual([]);
  });
});
