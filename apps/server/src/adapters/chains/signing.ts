/**
 * The signer port: the only way a transaction gets signed. The signer (`ROLE=signer`) holds the seed; the api,
 * ws, core and worker processes hold extended public keys only. It signs a transaction only when it matches its
 * stated purpose (an approved withdrawal exactly as approved and once, a sweep to our own hot wallet, gas from the
 * hot wallet to one of our deposit addresses, a hot→cold transfer to the configured cold address) and stays within
 * the network's daily cap; it refuses anything else with a `signer.*` code, and logs both.
 */

/**
 * A key of our wallet: `m / purpose' / coinType' / account' / 0 / index` of the network's scheme, with the address
 * it controls (the caller derived it from the extended public key; the signer derives it again and compares).
 * Account 0 holds the deposit addresses (one index each), account 1 the hot wallet (index 0).
 */
export interface WalletKey {
  account: 0 | 1;
  index: number;
  address: string;
}

/** The deposit addresses' account. */
export const DEPOSIT_ACCOUNT = 0;
/** The hot wallet's account; its address is index 0. */
export const HOT_ACCOUNT = 1;

/** Why something is signed; the signer's policy is per purpose. */
export type SigningPurpose =
  | { kind: 'withdrawal'; withdrawalId: number }
  | { kind: 'sweep' }
  | { kind: 'gas'; depositIndex: number }
  | { kind: 'cold' };

/** An EVM transaction to sign (EIP-1559), numbers as decimal strings. */
export interface EvmTransactionRequest {
  to: string;
  value: string;
  data: string;
  nonce: number;
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  chainId: string;
}

/** A TRON transaction as the node built it (`/wallet/createtransaction`, `/wallet/triggersmartcontract`). */
export interface TronUnsignedTransaction {
  txID: string;
  raw_data_hex: string;
}

export interface SignerPort {
  /**
   * Signs every input of a BIP174 PSBT (base64; P2WPKH inputs with their `witnessUtxo`), `keys[i]` being the key
   * of input i, and returns the finalised transaction.
   */
  signBitcoin(request: {
    network: string;
    purpose: SigningPurpose;
    psbt: string;
    keys: WalletKey[];
  }): Promise<{ hex: string; txid: string }>;

  /** Signs a TRON transaction's txID (sha256 of raw_data): 65 bytes r‖s‖v as hex, v being 27 or 28. */
  signTron(request: {
    network: string;
    purpose: SigningPurpose;
    transaction: TronUnsignedTransaction;
    key: WalletKey;
  }): Promise<{ signature: string }>;

  /** Signs an EVM transaction; returns the serialised signed transaction and its hash. */
  signEvm(request: {
    network: string;
    purpose: SigningPurpose;
    transaction: EvmTransactionRequest;
    key: WalletKey;
  }): Promise<{ raw: string; txid: string }>;
}

/** The signer refused (policy, authentication); nothing was signed. `code` is a dotted `signer.*` code. */
export class SignerRefusedError extends Error {
  constructor(readonly code: string) {
    super(`the signer refused: ${code}`);
    this.name = 'SignerRefusedError';
  }
}

/** The port of a process with no signer (an api-only process, the command line reading balances): it refuses all. */
export const NO_SIGNER: SignerPort = {
  signBitcoin: async () => {
    throw new SignerRefusedError('signer.not_configured');
  },
  signTron: async () => {
    throw new SignerRefusedError('signer.not_configured');
  },
  signEvm: async () => {
    throw new SignerRefusedError('signer.not_configured');
  },
};
