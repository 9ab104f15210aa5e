/**
 * The chain port: everything the wallet needs from a blockchain network. One instance per `blockchain_key`.
 * Amounts are bigint integers in the *currency's* units (its precision in `currencies`), never the chain's raw
 * units: the adapter converts (e.g. an ERC-20 with 6 decimals for usdt at precision 6 is 1:1; wei for eth at 18 is 1:1).
 *
 * No adapter holds a private key. Addresses come from extended public keys (the custody module derives them and
 * hands the adapter the public key); whatever must be signed goes to the signer (`SignerPort`), which signs only
 * what its policy allows for the stated purpose.
 */
import type { ExplorerTemplates } from './explorers.ts';
import type { SignerPort, SigningPurpose, WalletKey } from './signing.ts';

export interface ChainPort {
  /** The `blockchains.key` this adapter serves, e.g. `eth-devnet`, `btc-sim`. */
  readonly key: string;

  /**
   * How this network's keys are derived: BIP84 (`purpose` 84) for Bitcoin, BIP44 (44) for EVM and TRON, with the
   * SLIP-44 coin type (Bitcoin main 0, every Bitcoin test network 1, EVM 60, TRON 195). Fixed once the adapter
   * is built (a Bitcoin adapter asks its node which network it is on before it is handed out).
   */
  readonly keyScheme: KeyScheme;

  /**
   * The public block explorer of the chain this adapter is connected to (see `explorers.ts`); null or absent for
   * a chain nobody else can see (a simulator, a devnet, regtest).
   */
  readonly explorer?: ExplorerTemplates | null;

  /** The address of a compressed secp256k1 public key (33 bytes) on this network. */
  addressOf(publicKey: Uint8Array): string;

  /** Height of the newest block. */
  latestBlock(): Promise<number>;

  /**
   * The block at `height` with every transfer of a currency this network carries, to any address (the watcher
   * keeps those to our addresses). Only transfers that succeeded and, for tokens, came from the configured
   * token contract are listed. `null` if there is no such block (yet).
   */
  block(height: number): Promise<ChainBlock | null>;

  /** The canonical form of an address valid on this network, or null if it is not one (EVM: checksummed). */
  normalizeAddress(address: string): string | null;

  /** Balance of `address` in `currency` (confirmed, as the chain sees it). */
  balance(address: string, currency: string): Promise<bigint>;

  /**
   * Builds a transfer of `amount` `currency` from one of our addresses to `to`, has the signer sign it for
   * `purpose`, and broadcasts it. Resolves with the txid once the node accepted it. Rejects with
   * `BroadcastUnknownError` when it cannot know whether the node accepted it (timeout, dropped connection): the
   * caller must never resend automatically. Any other rejection means nothing was sent.
   */
  send(request: SendRequest): Promise<{ txid: string }>;

  /**
   * Moves everything of `currency` held at our `from` addresses to `to` (the hot wallet), for purpose `sweep`.
   * Native coins pay their own fee out of the amount moved; a token's fee is paid in the native coin that must
   * already be at the address (`sweepFee` says how much). One transaction on Bitcoin (many inputs, one output),
   * one per address on account chains. Resolves with what was broadcast; nothing to move gives no transaction.
   */
  sweep(request: SweepRequest): Promise<SweepResult>;

  /**
   * Native coin (in the native currency's units) an address needs to move `currency` out of it: gas for an
   * ERC-20 transfer, the TRX burnt for a TRC-20 transfer's energy and bandwidth. 0n where the amount pays its
   * own fee (native coins, Bitcoin).
   */
  sweepFee(currency: string): Promise<bigint>;

  /** State of a transaction we sent. */
  transaction(txid: string): Promise<TransactionStatus>;
}

/** Key derivation of a network: `m / purpose' / coinType' / account' / 0 / index`. */
export interface KeyScheme {
  purpose: 44 | 84;
  coinType: number;
  /** The native currency of the network (pays fees), e.g. `btc`, `eth`, `trx`. */
  nativeCurrency: string;
}

/** One credit to an address inside a block. `index` makes (txid, index) unique: an output or log index. */
export interface ChainTransfer {
  txid: string;
  index: number;
  currency: string;
  to: string;
  from: string | null;
  amount: bigint;
}

/** A block as the watcher scans it. `parentHash` lets it notice a reorg. */
export interface ChainBlock {
  height: number;
  hash: string;
  parentHash: string;
  transfers: ChainTransfer[];
}

export interface SendRequest {
  /** Why the transfer is made: the signer checks the transaction against it. */
  purpose: SigningPurpose;
  /** The address that pays, with its key's place in our wallet. */
  from: WalletKey;
  to: string;
  currency: string;
  amount: bigint;
  memo?: string | null;
}

export interface SweepRequest {
  /** Our deposit addresses to empty (on Bitcoin, each of their unspent outputs becomes an input). */
  from: WalletKey[];
  /** Our hot wallet. */
  to: string;
  currency: string;
}

export interface SweepResult {
  /** One per broadcast transaction, with the amount it moved (after its fee, for native coins). */
  transfers: { txid: string; from: string[]; amount: bigint }[];
}

/** `pending`: in the mempool; `confirmed`: mined and succeeded; `failed`: mined and reverted; `unknown`: the node does not know it. */
export interface TransactionStatus {
  state: 'pending' | 'confirmed' | 'failed' | 'unknown';
  /** Height of the block that holds it, when mined. */
  height: number | null;
  confirmations: number;
}

/** The broadcast may or may not have reached the node: the withdrawal goes to `errored` for an operator. */
export class BroadcastUnknownError extends Error {
  constructor(cause: unknown) {
    super(`broadcast outcome unknown: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'BroadcastUnknownError';
  }
}

/** What an adapter is built with besides its own settings. */
export interface ChainAdapterDeps {
  signer: SignerPort;
}
