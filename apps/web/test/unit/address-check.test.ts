import { describe, expect, it } from 'vitest';
import { addressFitsProtocol } from '../../src/features/wallet/address-check.ts';

describe('addressFitsProtocol', () => {
  it('checks the address format of the protocol, memo aside', () => {
    expect(addressFitsProtocol('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t?dt=42')).toBe(true);
    expect(addressFitsProtocol('TRX', `T${'x'.repeat(33)}`)).toBe(false);
    expect(addressFitsProtocol('ERC20', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(addressFitsProtocol('ETH', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(addressFitsProtocol('BTC', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080')).toBe(true);
    expect(addressFitsProtocol('BTC', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
  });

  it('leaves a protocol it does not know to the server', () => {
    expect(addressFitsProtocol('XRP', 'anything')).toBe(true);
  });
});
