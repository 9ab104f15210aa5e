import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Transaction as BtcTransaction } from '@scure/btc-signer';
import { Transaction as EvmTransaction, Wallet } from 'ethers';
import type { KeyScheme } from '../../src/adapters/chains/port.ts';
import type { SignerPort, WalletKey } from '../../src/adapters/chains/signing.ts';
import { accountPath, accountXpub } from '../../src/modules/custody/hd.ts';

/** A fixed test mnemonic (BIP39's all-"abandon" vector): test keys only, never funds. */
export const TEST_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/**
 * A signer with no policy, for adapter tests that check the protocol and not the custody rules: it signs
 * whatever it is asked to with the test mnemonic's keys. The real signer (modules/signer) has the policy.
 */
export function uncheckedSigner(schemeOf: (network: string) => KeyScheme, mnemonic = TEST_MNEMONIC) {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const privateKey = (network: string, key: WalletKey): Uint8Array => {
    const node = root.derive(`${accountPath(schemeOf(network), key.account)}/0/${key.index}`);
    if (!node.privateKey) throw new Error('no private key');
    return node.privateKey;
  };
  const signer: SignerPort = {
    async signBitcoin({ network, psbt, keys }) {
      const tx = BtcTransaction.fromPSBT(base64.decode(psbt));
      keys.forEach((key, i) => {
        tx.signIdx(privateKey(network, key), i);
      });
      tx.finalize();
      return { hex: tx.hex, txid: tx.id };
    },
    async signTron({ network, transaction, key }) {
      const signature = secp256k1.sign(hexToBytes(transaction.txID), privateKey(network, key), {
        prehash: false,
        format: 'recovered',
      });
      // noble's recovered format is recovery ‖ r ‖ s; TRON wants r ‖ s ‖ (recovery + 27).
      const out = new Uint8Array(65);
      out.set(signature.subarray(1), 0);
      out[64] = (signature[0] ?? 0) + 27;
      return { signature: Buffer.from(out).toString('hex') };
    },
    async signEvm({ network, transaction, key }) {
      const wallet = new Wallet(Buffer.from(privateKey(network, key)).toString('hex'));
      const raw = await wallet.signTransaction({ ...transaction, type: 2 });
      return { raw, txid: EvmTransaction.from(raw).hash ?? '' };
    },
  };
  /** The account's xpub, as the signer would publish it. */
  const xpub = (scheme: Pick<KeyScheme, 'purpose' | 'coinType'>, account: number) =>
    accountXpub(root, scheme, account);
  return { signer, xpub };
}
