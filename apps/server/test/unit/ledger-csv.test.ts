import { describe, expect, it } from 'vitest';
import { csvField, ledgerCsv } from '../../src/modules/admin/ledger.ts';

describe('the ledger CSV', () => {
  it('quotes a field only when it holds a comma, a quote or a line break, doubling quotes', () => {
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('has a header line and CRLF line ends', () => {
    const row = {
      currency: 'btc',
      balance: '1',
      locked: '0',
      fees: '0.1',
      external: '-1.1',
      card: '0',
      swap: '0',
      sum: '0',
    };
    expect(ledgerCsv([row])).toBe(
      'currency,balance,locked,fees,external,card,swap,sum\r\nbtc,1,0,0.1,-1.1,0,0,0\r\n',
    );
  });
});
