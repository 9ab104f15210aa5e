import type { HDKey } from '@scure/bip32';
import type pg from 'pg';
import type { KeyScheme } from '../../adapters/chains/port.ts';
import type { WalletKey } from '../../adapters/chains/signing.ts';
import { accountPath, accountXpub, KEY_SCHEMES } from '../custody/hd.ts';
import { PolicyRefusal } from './policy.ts';
import { publishXpub } from './repository.ts';

/** The two accounts of every scheme: deposit addresses (0) and the hot wallet (1). */
const ACCOUNTS = [0, 1] as const;

export type Scheme = Pick<KeyScheme, 'purpose' | 'coinType'>;

/** The signer's keys: the BIP32 root of its seed, and nothing else. */
export class SignerKeys {
  /** Each account's extended public key, derived once (a derivation is a few elliptic-curve multiplications). */
  private readonly accountXpubs = new Map<string, string>();

  constructor(private readonly root: HDKey) {}

  /** The private key of `key` in `scheme`; refused for an account or index outside the wallet's. */
  privateKey(scheme: Scheme, key: Pick<WalletKey, 'account' | 'index'>): Uint8Array {
    return this.node(scheme, key).privateKey as Uint8Array;
  }

  /** The compressed public key of `key` in `scheme`. */
  publicKey(scheme: Scheme, key: Pick<WalletKey, 'account' | 'index'>): Uint8Array {
    return this.node(scheme, key).publicKey as Uint8Array;
  }

  private node(scheme: Scheme, key: Pick<WalletKey, 'account' | 'index'>): HDKey {
    if (!KEY_SCHEMES.some((s) => s.purpose === scheme.purpose && s.coinType === scheme.coinType))
      throw new PolicyRefusal('signer.key.unknown_scheme');
    if (key.account !== 0 && key.account !== 1) throw new PolicyRefusal('signer.key.unknown_account');
    if (!Number.isSafeInteger(key.index) || key.index < 0 || key.index >= 0x80000000)
      throw new PolicyRefusal('signer.key.bad_index');
    if (key.account === 1 && key.index !== 0) throw new PolicyRefusal('signer.key.bad_index');
    return this.root.derive(`${accountPath(scheme, key.account)}/0/${key.index}`);
  }

  /**
   * Writes the extended public key of each account to `custody_xpubs`. An account already published with another
   * key belongs to another seed: the signer refuses to start rather than hand out addresses it cannot sign for.
   */
  async publish(db: pg.Pool): Promise<void> {
    for (const scheme of KEY_SCHEMES) {
      for (const account of ACCOUNTS) {
        const xpub = this.xpubOf(scheme, account);
        const stored = await publishXpub(db, {
          purpose: scheme.purpose,
          coinType: scheme.coinType,
          account,
          xpub,
        });
        if (stored !== xpub)
          throw new Error(
            `the database's wallet (${accountPath(scheme, account)}) comes from another seed than this signer's: refusing to start`,
          );
      }
    }
  }

  /** Every account's extended public key, as `signer init` prints them. */
  xpubs(): { path: string; xpub: string }[] {
    return KEY_SCHEMES.flatMap((scheme) =>
      ACCOUNTS.map((account) => ({
        path: accountPath(scheme, account),
        xpub: this.xpubOf(scheme, account),
      })),
    );
  }

  private xpubOf(scheme: Scheme, account: 0 | 1): string {
    const path = accountPath(scheme, account);
    let xpub = this.accountXpubs.get(path);
    if (xpub === undefined) {
      xpub = accountXpub(this.root, scheme, account);
      this.accountXpubs.set(path, xpub);
    }
    return xpub;
  }
}
