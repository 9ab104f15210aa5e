import {
  type Block,
  computeAddress,
  FetchRequest,
  getAddress,
  hexlify,
  Interface,
  isError,
  JsonRpcProvider,
  Network,
  Transaction,
} from 'ethers';
import { evmExplorer } from '../explorers.ts';
import {
  BroadcastUnknownError,
  type ChainPort,
  type SendRequest,
  type SweepResult,
  type TransactionStatus,
} from '../port.ts';
import type { SignerPort, SigningPurpose, WalletKey } from '../signing.ts';
import { type EvmCurrency, indexCurrencies, NATIVE_DECIMALS } from './currencies.ts';
import { normalizeEvmAddress, readBlockTransfers } from './transfers.ts';
import { fromChainUnits, toChainUnits } from './units.ts';

export type { EvmCurrency } from './currencies.ts';

export interface EvmChainOptions {
  /** The `blockchains.key`, e.g. `eth-devnet`. */
  key: string;
  /** JSON-RPC over HTTP, e.g. `http://127.0.0.1:8545`. */
  rpcUrl: string;
  /** Signed into every transaction (EIP-155); fixed here so a wrong node cannot make us sign for another chain. */
  chainId: number;
  /** What the network carries, e.g. `[{currency:'eth', precision:18, native:true}, {currency:'usdt', precision:6, contract:'0x…', decimals:6}]`. */
  currencies: EvmCurrency[];
  /** How long one JSON-RPC call may take before it fails (default 30 s). */
  timeoutMs?: number;
  /** Signs what we send (the adapter holds no key). */
  signer: SignerPort;
}

/** What a transaction may pay for gas (EIP-1559). */
interface Pricing {
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** Gas of a plain ether transfer. */
const ETHER_TRANSFER_GAS = 21_000n;
/** Gas an ERC-20 `transfer` may take at most when we price a token sweep (a transfer to a new holder is ~52k). */
const TOKEN_TRANSFER_GAS = 100_000n;

const ERC20 = new Interface([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);

/**
 * The chain port over an EVM node's JSON-RPC (ethers 6).
 *
 * Deposits (`block`): top-level ether transfers with a successful receipt, listed with `index` -1, and ERC-20
 * `Transfer` logs of the configured contracts in successful receipts, listed with their log index (0 and up),
 * so (txid, index) never collides inside one transaction. Ether moved by contracts (internal transfers) is not
 * seen. Amounts a currency cannot hold exactly are rounded down; a transfer that rounds to zero is left out.
 *
 * Sends (`send`, `sweep`): built here as EIP-1559 transactions (nonce from the node's pending count, fees from its
 * fee data, gas estimated), signed by the signer, broadcast here. The sender pays gas in ether, so an address
 * holding only tokens needs a gas top-up first (`sweepFee` says how much). Sends from one address must be
 * serialised by the caller. `memo` has no meaning on EVM and is ignored.
 */
export function createEvmChain(options: EvmChainOptions): ChainPort {
  const currencies = indexCurrencies(options.currencies);
  const request = new FetchRequest(options.rpcUrl);
  request.timeout = options.timeoutMs ?? 30_000;
  // staticNetwork: no chain-id probe loop; cacheTimeout -1: every call asks the node (heights move under us).
  const provider = new JsonRpcProvider(request, Network.from(options.chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
  });

  return {
    key: options.key,
    explorer: evmExplorer(options.chainId),
    keyScheme: {
      purpose: 44,
      coinType: 60,
      nativeCurrency: currencies.native?.currency ?? 'eth',
    },

    addressOf: (publicKey) => computeAddress(hexlify(publicKey)),

    async latestBlock() {
      return provider.getBlockNumber();
    },

    async block(height) {
      const block: Block | null = await provider.getBlock(height, true);
      if (!block?.hash) return null;
      return {
        height: block.number,
        hash: block.hash,
        parentHash: block.parentHash,
        transfers: await readBlockTransfers(provider, block, currencies),
      };
    },

    normalizeAddress: normalizeEvmAddress,

    async balance(address, currency) {
      const entry = currencies.get(currency);
      const owner = requireAddress(address);
      if ('native' in entry) {
        return fromChainUnits(await provider.getBalance(owner), NATIVE_DECIMALS, entry.precision);
      }
      return tokenBalance(owner, entry.contract, entry.decimals, entry.precision);
    },

    async send(request) {
      return { txid: await sendSigned(request.purpose, request.from, transferFields(request)) };
    },

    async sweep({ from, to, currency }): Promise<SweepResult> {
      const entry = currencies.get(currency);
      const transfers: SweepResult['transfers'] = [];
      for (const key of from) {
        const owner = requireAddress(key.address);
        let amount: bigint;
        let fields: { to: string; value: bigint; data: string };
        let pricing: Pricing | undefined;
        if ('native' in entry) {
          const fees = await provider.getFeeData();
          pricing = {
            gasLimit: ETHER_TRANSFER_GAS,
            maxFeePerGas: fees.maxFeePerGas ?? fees.gasPrice ?? 0n,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 0n,
          };
          // The whole upfront cost stays behind; what the node does not burn of it is left at the address.
          const value = (await provider.getBalance(owner)) - ETHER_TRANSFER_GAS * pricing.maxFeePerGas;
          amount = fromChainUnits(value, NATIVE_DECIMALS, entry.precision);
          if (amount <= 0n) continue;
          fields = {
            to: requireAddress(to),
            value: toChainUnits(amount, NATIVE_DECIMALS, entry.precision),
            data: '0x',
          };
        } else {
          amount = await tokenBalance(owner, entry.contract, entry.decimals, entry.precision);
          if (amount <= 0n) continue;
          const raw = toChainUnits(amount, entry.decimals, entry.precision);
          fields = {
            to: entry.contract,
            value: 0n,
            data: ERC20.encodeFunctionData('transfer', [requireAddress(to), raw]),
          };
        }
        const txid = await sendSigned({ kind: 'sweep' }, key, fields, pricing);
        transfers.push({ txid, from: [key.address], amount });
      }
      return { transfers };
    },

    async sweepFee(currency) {
      const entry = currencies.get(currency);
      if ('native' in entry) return 0n;
      const native = currencies.native;
      if (!native) throw new Error('a token sweep needs the network native currency for gas');
      const fees = await provider.getFeeData();
      const wei = TOKEN_TRANSFER_GAS * (fees.maxFeePerGas ?? fees.gasPrice ?? 0n);
      // Rounded up: a top-up a little short would leave the sweep stuck.
      return fromChainUnits(
        wei + 10n ** BigInt(NATIVE_DECIMALS - native.precision) - 1n,
        NATIVE_DECIMALS,
        native.precision,
      );
    },

    async transaction(txid) {
      const receipt = await provider.getTransactionReceipt(txid);
      if (receipt) {
        const latest = await provider.getBlockNumber();
        return {
          state: receipt.status === 1 ? 'confirmed' : 'failed',
          height: receipt.blockNumber,
          confirmations: Math.max(0, latest - receipt.blockNumber + 1),
        } satisfies TransactionStatus;
      }
      const pending = await provider.getTransaction(txid);
      return { state: pending ? 'pending' : 'unknown', height: null, confirmations: 0 };
    },
  };

  async function pricingOf(
    from: string,
    fields: { to: string; value: bigint; data: string },
  ): Promise<Pricing> {
    const [fees, gasLimit] = await Promise.all([
      provider.getFeeData(),
      provider.estimateGas({ from, ...fields }),
    ]);
    return {
      gasLimit,
      maxFeePerGas: fees.maxFeePerGas ?? fees.gasPrice ?? 0n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 0n,
    };
  }

  async function tokenBalance(owner: string, contract: string, decimals: number, precision: number) {
    const data = ERC20.encodeFunctionData('balanceOf', [owner]);
    const [raw] = ERC20.decodeFunctionResult('balanceOf', await provider.call({ to: contract, data }));
    return fromChainUnits(BigInt(raw), decimals, precision);
  }

  function transferFields({ to, currency, amount }: SendRequest): {
    to: string;
    value: bigint;
    data: string;
  } {
    const recipient = requireAddress(to);
    if (amount <= 0n) throw new Error('amount must be positive');
    const entry = currencies.get(currency);
    if ('native' in entry) {
      return { to: recipient, value: toChainUnits(amount, NATIVE_DECIMALS, entry.precision), data: '0x' };
    }
    const raw = toChainUnits(amount, entry.decimals, entry.precision);
    return { to: entry.contract, value: 0n, data: ERC20.encodeFunctionData('transfer', [recipient, raw]) };
  }

  /**
   * Builds, has signed and broadcasts one transaction from `key`. Everything up to the broadcast only reads from
   * the node: a failure there means nothing was sent.
   */
  async function sendSigned(
    purpose: SigningPurpose,
    key: WalletKey,
    fields: { to: string; value: bigint; data: string },
    fixed?: Pricing,
  ): Promise<string> {
    const from = requireAddress(key.address);
    const nonce = await provider.getTransactionCount(from, 'pending');
    const { gasLimit, maxFeePerGas, maxPriorityFeePerGas } = fixed ?? (await pricingOf(from, fields));
    const signed = await options.signer.signEvm({
      network: options.key,
      purpose,
      key,
      transaction: {
        to: fields.to,
        value: fields.value.toString(),
        data: fields.data,
        nonce,
        gasLimit: gasLimit.toString(),
        maxFeePerGas: maxFeePerGas.toString(),
        maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
        chainId: String(options.chainId),
      },
    });
    const parsed = Transaction.from(signed.raw);
    // What comes back must be what we asked for, from the key we named.
    if (
      parsed.from !== from ||
      parsed.to !== getAddress(fields.to) ||
      parsed.value !== fields.value ||
      parsed.data !== fields.data ||
      parsed.nonce !== nonce
    )
      throw new Error('the signer returned another transaction than the one asked for');
    const txid = parsed.hash as string;
    try {
      await provider.send('eth_sendRawTransaction', [signed.raw]);
    } catch (error) {
      if (isAlreadyKnown(error)) return txid;
      if (isNodeRejection(error)) throw new Error(`node refused ${txid}: ${shortMessage(error)}`);
      // The txid goes into the message: the operator can look it up before deciding anything.
      throw new BroadcastUnknownError(new Error(`${txid}: ${shortMessage(error)}`));
    }
    return txid;
  }
}

function requireAddress(address: string): string {
  const normalized = normalizeEvmAddress(address);
  if (!normalized) throw new Error(`not an EVM address: ${address}`);
  return normalized;
}

/**
 * The node answered with a JSON-RPC error: it read the transaction and refused it, so it will not be mined.
 * Anything else (timeout, dropped connection, an HTTP error from a proxy) leaves the outcome unknown.
 */
function isNodeRejection(error: unknown): boolean {
  if (
    isError(error, 'INSUFFICIENT_FUNDS') ||
    isError(error, 'NONCE_EXPIRED') ||
    isError(error, 'REPLACEMENT_UNDERPRICED')
  ) {
    return true;
  }
  if (isError(error, 'UNKNOWN_ERROR')) {
    const rpcError: unknown = error.error;
    return typeof rpcError === 'object' && rpcError !== null && 'code' in rpcError;
  }
  return false;
}

/** The node already holds this very transaction (e.g. it reached the node through another route): it is sent. */
function isAlreadyKnown(error: unknown): boolean {
  return (
    isError(error, 'UNKNOWN_ERROR') && /already known|known transaction/i.test(JSON.stringify(error.error))
  );
}

function shortMessage(error: unknown): string {
  if (isError(error, 'UNKNOWN_ERROR')) return JSON.stringify(error.error);
  if (error instanceof Error) return 'shortMessage' in error ? String(error.shortMessage) : error.message;
  return String(error);
}
