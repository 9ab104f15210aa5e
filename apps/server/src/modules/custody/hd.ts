import { HDKey } from '@scure/bip32';
import type { KeyScheme } from '../../adapters/chains/port.ts';

/**
 * BIP32 paths of our wallet. An account's extended public key (`m / purpose' / coinType' / account'`) is all a
 * process needs to derive the addresses of that account; only the signer holds the seed they come from.
 */

/** `m/84'/1'/0'`: the path of an account's extended key. */
export function accountPath(scheme: Pick<KeyScheme, 'purpose' | 'coinType'>, account: number): string {
  return `m/${scheme.purpose}'/${scheme.coinType}'/${account}'`;
}

/** The compressed public key (33 bytes) of `<account xpub>/0/index`: an external (receiving) address. */
export function publicKeyAt(accountXpub: string, index: number): Uint8Array {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 0x80000000)
    throw new Error(`bad key index ${index}`);
  const key = HDKey.fromExtendedKey(accountXpub).deriveChild(0).deriveChild(index);
  if (!key.publicKey) throw new Error('the extended key has no public key');
  return key.publicKey;
}

/** The account's extended public key from a root key (the signer, `signer init`). */
export function accountXpub(root: HDKey, scheme: Pick<KeyScheme, 'purpose' | 'coinType'>, account: number) {
  return root.derive(accountPath(scheme, account)).publicExtendedKey;
}

/** Every scheme the wallet derives keys for; the signer publishes an account 0 and 1 xpub of each. */
export const KEY_SCHEMES: readonly Pick<KeyScheme, 'purpose' | 'coinType'>[] = [
  { purpose: 84, coinType: 0 },
  { purpose: 84, coinType: 1 },
  { purpose: 44, coinType: 60 },
  { purpose: 44, coinType: 195 },
];
