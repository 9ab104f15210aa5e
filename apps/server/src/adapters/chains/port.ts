/**
 * The chain port: everything the wallet needs from a blockchain network. One instance per `blockchain_key`.
 * Amounts are bigint integers in the *currency's* units (its precision in `currencies`), never the chain's raw
 * units: the adapter converts (e.g. an ERC-20 with 6 decimals for usdt at precision 6 is 1:1; wei for eth at 18 is 1:1).
 */
export interface ChainPort {
  /** The `blockchains.key` this adapter serves, e.g. `eth-devnet`, `tron-sim`. */
  readonly key: string;

  /** Height of the newest block. */
  latestBlock(): Promise<number>;

  /**
   * The block at `height` with every transfer of a currency this network carries, to any address (the watcher
   * keeps those to our addresses). Only transfers that succeeded and, for tokens, came from the configured
   * token contract are listed. `null` if there is no such block (yet).
   */
  block(height: number): Promise<ChainBlock | null>;

  /** A new address with its private key (the caller stores the key encrypted). */
  createAddress(): Promise<{ address: string; secret: string }>;

  /** The canonical form of an address valid on this network, or null if it is not one (EVM: checksummed). */
  normalizeAddress(address: string): string | null;

  /** Balance of `address` in `currency`. */
  balance(address: string, currency: string): Promise<bigint>;

  /**
   * Signs and broadcasts a transfer of `amount` `currency` from the address whose key is `fromSecret`.
   * Resolves with the txid once the node accepted it. Rejects with `BroadcastUnknownError` when it cannot know
   * whether the node accepted it (timeout, dropped connection): the caller must never resend automatically.
   */
  send(request: SendRequest): Promise<{ txid: string }>;

  /** State of a transaction we sent. */
  transaction(txid: string): Promise<TransactionStatus>;
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
  fromSecret: string;
  to: string;
  currency: string;
  amount: bigint;
  memo?: string | null;
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
