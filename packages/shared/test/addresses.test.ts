import { describe, expect, it } from 'vitest';
import { BTC_NETWORKS, encodeP2wpkhAddress, encodeTronAddress, validateAddress } from '../src/addresses.ts';

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
/** Replaces the character at `at` by another one of the same alphabet. */
const retype = (text: string, at: number, alphabet: string) => {
  const next = alphabet[(alphabet.indexOf(text[at] ?? '') + 1) % alphabet.length];
  return `${text.slice(0, at)}${next}${text.slice(at + 1)}`;
};
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const anyBtc = { btcNetworks: BTC_NETWORKS };

describe('TRON addresses (Base58Check, version 0x41)', () => {
  const usdtContract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

  it('accepts real addresses as they are', () => {
    expect(validateAddress('tron', usdtContract)).toBe(usdtContract);
    expect(validateAddress('tron', ` ${usdtContract}`)).toBeNull();
    expect(encodeTronAddress(bytes('a614f803b6fd780986a42c78ec9c7f77e6ded13c'))).toBe(usdtContract);
  });

  it('refuses the right shape without a checksum, and any changed character', () => {
    expect(validateAddress('tron', `T${'x'.repeat(33)}`)).toBeNull();
    for (const at of [1, 10, 20, 33])
      expect(validateAddress('tron', retype(usdtContract, at, BASE58))).toBeNull();
    expect(validateAddress('tron', usdtContract.slice(0, -1))).toBeNull();
    expect(validateAddress('tron', `${usdtContract}1`)).toBeNull();
  });

  it('refuses other Base58Check payloads: a Bitcoin address, a long string', () => {
    expect(validateAddress('tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBeNull();
    expect(validateAddress('tron', `T${'1'.repeat(200)}`)).toBeNull();
    expect(validateAddress('tron', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
  });

  it('makes valid addresses from any 20-byte account id', () => {
    const address = encodeTronAddress(new Uint8Array(20).fill(7));
    expect(address).toMatch(/^T/);
    expect(validateAddress('tron', address)).toBe(address);
    expect(() => encodeTronAddress(new Uint8Array(19))).toThrow();
  });
});

describe('Bitcoin addresses', () => {
  it('accepts the BIP-173 and BIP-350 vectors of the chosen networks, in lower case', () => {
    expect(validateAddress('btc', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    for (const address of [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', // v0, 32 bytes
      'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
      'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', // v1 (Taproot), bech32m
    ]) {
      expect(validateAddress('btc', address, { btcNetworks: ['testnet'] })).toBe(address);
    }
    const taproot = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
    expect(validateAddress('btc', taproot)).toBe(taproot);
  });

  it('takes the HRP of the network only', () => {
    const regtest = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
    expect(encodeP2wpkhAddress('regtest', bytes('751e76e8199196d454941c45d1b3a323f1433bd6'))).toBe(regtest);
    expect(validateAddress('btc', regtest, { btcNetworks: ['regtest'] })).toBe(regtest);
    expect(validateAddress('btc', regtest)).toBeNull();
    expect(validateAddress('btc', regtest, { btcNetworks: ['testnet'] })).toBeNull();
    expect(
      validateAddress('btc', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', { btcNetworks: ['regtest'] }),
    ).toBeNull();
  });

  it('refuses bad checksums, padding, lengths, versions and mixed case', () => {
    for (const address of [
      retype('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 20, BECH32), // one changed character
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', // v1 with a bech32 checksum
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', // v0 with a bech32m checksum
      'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', // v0 program of 16 bytes
      'bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', // non-zero padding
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', // v1 of 40 bytes
      'bc1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', // mixed case
      `bcrt1q${'x'.repeat(38)}`,
    ]) {
      expect(validateAddress('btc', address, anyBtc), address).toBeNull();
    }
  });

  it('accepts legacy Base58Check addresses with the version bytes of the network', () => {
    expect(validateAddress('btc', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    );
    expect(validateAddress('btc', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    );
    const testnet = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn';
    expect(validateAddress('btc', testnet, { btcNetworks: ['regtest'] })).toBe(testnet);
    expect(validateAddress('btc', testnet)).toBeNull();
    expect(validateAddress('btc', retype('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 12, BASE58))).toBeNull();
    expect(validateAddress('btc', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', anyBtc)).toBeNull();
  });
});

describe('EVM addresses (EIP-55)', () => {
  const eip55Examples = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('accepts checksummed addresses, and normalises one-case ones to the checksum', () => {
    for (const address of eip55Examples) {
      expect(validateAddress('evm', address)).toBe(address);
      expect(validateAddress('evm', address.toLowerCase())).toBe(address);
      expect(validateAddress('evm', `0x${address.slice(2).toUpperCase()}`)).toBe(address);
    }
  });

  it('refuses a wrong mixed-case checksum and anything not 0x + 40 hex', () => {
    expect(validateAddress('evm', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(validateAddress('evm', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBeNull();
    expect(validateAddress('evm', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(validateAddress('evm', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBeNull();
    expect(validateAddress('evm', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg')).toBeNull();
  });
});
