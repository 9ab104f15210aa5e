import type pg from 'pg';
import type { KeyScheme } from '../../adapters/chains/port.ts';
import { DEPOSIT_ACCOUNT, HOT_ACCOUNT, type WalletKey } from '../../adapters/chains/signing.ts';
import { LOCK_FAMILIES, withLock } from '../../db/locks.ts';
import type { Tx } from '../../db/pool.ts';
import { publicKeyAt } from '../custody/hd.ts';
import {
  depositAddressOwner,
  depositNetwork,
  firstNetworkAddresses,
  insertDepositAddress,
  keyedDepositAddresses,
  latestKeyedAddress,
  ourAddressesAmong,
  publishedXpub,
  recordHotWallet,
  takeKeyIndex,
} from './addresses-repository.ts';
import type { Network } from './chains.ts';

/**
 * Our addresses, derived from the extended public keys the signer published (`custody_xpubs`): no secret is
 * needed to make one, and none is stored. A deposit address is its key index; the hot wallet is account 1, index 0.
 */

/** The signer has not published its extended public keys yet (it has not started once with this database). */
export class KeysNotPublishedError extends Error {
  constructor(scheme: Pick<KeyScheme, 'purpose' | 'coinType'>, account: number) {
    super(
      `no extended public key for m/${scheme.purpose}'/${scheme.coinType}'/${account}': start the signer once (ROLE=signer)`,
    );
    this.name = 'KeysNotPublishedError';
  }
}

async function accountXpub(db: pg.Pool | Tx, scheme: KeyScheme, account: number): Promise<string> {
  const xpub = await publishedXpub(db, scheme.purpose, scheme.coinType, account);
  if (xpub === undefined) throw new KeysNotPublishedError(scheme, account);
  return xpub;
}

/** The key of our wallet at `account`/`index` on the network, with its address. */
export async function walletKey(
  db: pg.Pool | Tx,
  network: Network,
  account: 0 | 1,
  index: number,
): Promise<WalletKey> {
  const xpub = await accountXpub(db, network.chain.keyScheme, account);
  return { account, index, address: network.chain.addressOf(publicKeyAt(xpub, index)) };
}

/** A user's current deposit address on a network, creating the first one on demand. */
export async function currentDepositAddress(db: pg.Pool, network: Network, userId: number): Promise<string> {
  const existing = await latestAddress(db, userId, network);
  if (existing) return existing;
  return newDepositAddress(db, network, userId);
}

/**
 * The user's newest deposit address on the network that comes from our keys. Addresses of earlier versions (each
 * with a key of its own, now retired) keep receiving, but are no longer handed out.
 */
async function latestAddress(q: pg.Pool | Tx, userId: number, network: Network): Promise<string | null> {
  const address = await latestKeyedAddress(q, userId, network.key);
  return address && network.chain.normalizeAddress(address) === address ? address : null;
}

/**
 * Derives a fresh address for the user (after each deposit, so addresses are not reused) at the next index of the
 * network's key scheme. Two concurrent first requests are serialised by an advisory lock per user and network, so
 * the user gets one address.
 */
export async function newDepositAddress(
  db: pg.Pool,
  network: Network,
  userId: number,
  onlyIfNone = true,
): Promise<string> {
  return withLock(db, [LOCK_FAMILIES.depositAddress, `${network.key}:${userId}`], async (client) => {
    if (onlyIfNone) {
      const existing = await latestAddress(client, userId, network);
      if (existing) return existing;
    }
    const { purpose, coinType } = network.chain.keyScheme;
    const index = await takeKeyIndex(client, purpose, coinType);
    const key = await walletKey(client, network, DEPOSIT_ACCOUNT, index);
    await insertDepositAddress(client, { userId, key: network.key, address: key.address, keyIndex: index });
    return key.address;
  });
}

/** The user who owns `address` on the network, if it is one of our deposit addresses. */
export async function addressOwner(db: pg.Pool | Tx, key: string, address: string): Promise<number | null> {
  const owner = await depositAddressOwner(db, key, address);
  return owner !== undefined ? Number(owner) : null;
}

/** The wallet keys of our deposit addresses among `addresses` (legacy ones, with no key index, are left out). */
export async function depositKeys(
  db: pg.Pool | Tx,
  network: Network,
  addresses: string[],
): Promise<WalletKey[]> {
  const rows = await keyedDepositAddresses(db, network.key, addresses);
  return rows.map((r) => ({ account: DEPOSIT_ACCOUNT, index: Number(r.key_index), address: r.address }));
}

/**
 * Hot wallets already derived and recorded, per network adapter: the watcher asks for every block, and deriving a
 * key is elliptic-curve work. A database keeps one seed (the signer refuses another), so the key never changes.
 */
const hotWallets = new WeakMap<Network['chain'], Promise<WalletKey>>();

/** The network's hot wallet: account 1, index 0 of its scheme; recorded in `hot_wallets` for the console. */
export function hotWallet(db: pg.Pool, network: Network): Promise<WalletKey> {
  const known = hotWallets.get(network.chain);
  if (known) return known;
  const derived = (async () => {
    const key = await walletKey(db, network, HOT_ACCOUNT, 0);
    await recordHotWallet(db, network.key, key.address);
    return key;
  })();
  hotWallets.set(network.chain, derived);
  // A failure (keys not published yet) is not kept: the next call tries again.
  derived.catch(() => hotWallets.delete(network.chain));
  return derived;
}

/** Which of `addresses` are ours on the network (deposit addresses and the hot wallet). */
export async function ourAddresses(db: pg.Pool, network: Network, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  return new Set(await ourAddressesAmong(db, network.key, addresses));
}

/** A deposit address as Peatio's PaymentAddress entity shows it inside an account (`GET /account/balances`). */
export interface AccountDepositAddress {
  currencies: string[];
  blockchain_key: string;
  address: string;
  state: 'active';
}

/**
 * The deposit address of each currency that has a network, for the user's balances: the current address on the
 * currency's first network (the one `GET /account/deposit_address/:currency` serves without a `blockchain_key`),
 * or null while none was handed out. Nothing is created here: a read of balances never derives an address.
 * BaseApp 2.6 rebuilds its wallets from the balances every few seconds and shows the address found there.
 */
export async function accountDepositAddresses(
  db: pg.Pool,
  networks: { get(key: string): Network | undefined },
  userId: number,
): Promise<Map<string, AccountDepositAddress | null>> {
  const rows = await firstNetworkAddresses(db, userId);
  const addresses = new Map<string, AccountDepositAddress | null>();
  for (const row of rows) {
    const chain = networks.get(row.blockchain_key)?.chain;
    // As `latestAddress`: an address saved before checksums were kept is not handed out again.
    const usable = row.address !== null && chain?.normalizeAddress(row.address) === row.address;
    addresses.set(
      row.currency_id,
      usable
        ? {
            currencies: [row.currency_id],
            blockchain_key: row.blockchain_key,
            address: row.address as string,
            state: 'active',
          }
        : null,
    );
  }
  return addresses;
}

/** The network a currency deposits on (the given one, or its first), with whether deposits are on; none: undefined. */
export async function depositNetworkOf(
  db: pg.Pool,
  currency: string,
  blockchainKey: string | null,
): Promise<{ blockchain_key: string; deposit_enabled: boolean } | undefined> {
  return depositNetwork(db, currency, blockchainKey);
}
