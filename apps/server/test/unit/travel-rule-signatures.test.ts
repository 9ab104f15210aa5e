import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { p2pkh, p2sh, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';
import bitcoinMessage from 'bitcoinjs-message';
import { Wallet } from 'ethers';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import {
  addressKind,
  verifyAddressProof,
  verifyBip137,
  verifyEip191,
  verifyTip191,
} from '../../src/modules/compliance/travel-rule/signatures.ts';

// Signatures are made by each chain's own library (ethers, bitcoinjs-message, TronWeb), never by our code.
const MESSAGE = 'Exchange address proof\nuser ID1A2B3C4D5E\nnonce 42';
const KEY = hex.decode('4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const OTHER_KEY = hex.decode('8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63');

describe('EIP-191 personal_sign (ethers Wallet.signMessage)', () => {
  const wallet = new Wallet(hex.encode(KEY));
  it('accepts the signer of the message', async () => {
    const signature = await wallet.signMessage(MESSAGE);
    expect(addressKind(wallet.address)).toBe('evm');
    expect(verifyEip191(wallet.address, MESSAGE, signature)).toBe(true);
    expect(verifyAddressProof(wallet.address.toLowerCase(), MESSAGE, signature)).toBe(true);
  });
  it('refuses another address and a changed message', async () => {
    const signature = await wallet.signMessage(MESSAGE);
    const other = new Wallet(hex.encode(OTHER_KEY)).address;
    expect(verifyAddressProof(other, MESSAGE, signature)).toBe(false);
    expect(verifyAddressProof(wallet.address, `${MESSAGE}!`, signature)).toBe(false);
    expect(verifyAddressProof(wallet.address, MESSAGE, 'not a signature')).toBe(false);
  });
});

describe('BIP-137 Bitcoin signed message (bitcoinjs-message)', () => {
  const pub = secp256k1.getPublicKey(KEY, true);
  const sign = (segwitType?: 'p2wpkh' | 'p2sh(p2wpkh)') =>
    bitcoinMessage
      .sign(MESSAGE, Buffer.from(KEY), true, segwitType ? { segwitType } : undefined)
      .toString('base64');
  const legacy = p2pkh(pub, TEST_NETWORK).address as string;
  const nested = p2sh(p2wpkh(pub, TEST_NETWORK), TEST_NETWORK).address as string;
  const native = p2wpkh(pub, TEST_NETWORK).address as string;
  const mainnetNative = p2wpkh(pub).address as string;

  it('accepts legacy, nested and native segwit addresses of the signing key, on any network', () => {
    expect(addressKind(native)).toBe('btc');
    expect(verifyBip137(legacy, MESSAGE, sign())).toBe(true);
    expect(verifyBip137(nested, MESSAGE, sign('p2sh(p2wpkh)'))).toBe(true);
    expect(verifyBip137(native, MESSAGE, sign('p2wpkh'))).toBe(true);
    expect(verifyAddressProof(mainnetNative, MESSAGE, sign('p2wpkh'))).toBe(true);
    // Electrum-style: a segwit address signed with the legacy compressed header.
    expect(verifyBip137(native, MESSAGE, sign())).toBe(true);
    // The library's own verifier agrees on the same inputs (a check of the test, not of our code).
    expect(bitcoinMessage.verify(MESSAGE, mainnetNative, sign('p2wpkh'))).toBe(true);
  });
  it('refuses another address, a changed message, and a header naming another address type', () => {
    const otherPub = secp256k1.getPublicKey(OTHER_KEY, true);
    const otherNative = p2wpkh(otherPub, TEST_NETWORK).address as string;
    expect(verifyAddressProof(otherNative, MESSAGE, sign('p2wpkh'))).toBe(false);
    expect(verifyAddressProof(native, `${MESSAGE} `, sign('p2wpkh'))).toBe(false);
    // A native-segwit header does not prove a legacy address.
    expect(verifyBip137(legacy, MESSAGE, sign('p2wpkh'))).toBe(false);
    expect(verifyAddressProof(native, MESSAGE, 'AAAA')).toBe(false);
  });
});

describe('TIP-191 TRON signed message (TronWeb signMessageV2)', () => {
  const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9' });
  const address = TronWeb.address.fromPrivateKey(hex.encode(KEY)) as string;
  it('accepts the signer of the message', async () => {
    const signature = await tronWeb.trx.signMessageV2(MESSAGE, hex.encode(KEY));
    expect(addressKind(address)).toBe('tron');
    expect(verifyTip191(address, MESSAGE, signature)).toBe(true);
    expect(verifyAddressProof(address, MESSAGE, signature)).toBe(true);
  });
  it('refuses another address and a changed message', async () => {
    const signature = await tronWeb.trx.signMessageV2(MESSAGE, hex.encode(KEY));
    const other = TronWeb.address.fromPrivateKey(hex.encode(OTHER_KEY)) as string;
    expect(verifyAddressProof(other, MESSAGE, signature)).toBe(false);
    expect(verifyAddressProof(address, MESSAGE.toUpperCase(), signature)).toBe(false);
    // An EIP-191 signature by the same key is not a TRON signature (different prefix).
    const evmSignature = await new Wallet(hex.encode(KEY)).signMessage(MESSAGE);
    expect(verifyAddressProof(address, MESSAGE, evmSignature)).toBe(false);
  });
});
