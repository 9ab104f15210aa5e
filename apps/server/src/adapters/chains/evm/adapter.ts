import {
  type Block,
  FetchRequest,
  hexlify,
  Interface,
  isError,
  JsonRpcProvider,
  Network,
  randomBytes,
  Transaction,
  type TransactionRequest,
  Wallet,
} from 'ethers';
import { BroadcastUnknownError, type ChainPort, type SendRequest, type TransactionStatus } from '../port.ts';
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
}

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
 * Sends (`send`): signed locally with the sender's key; the sender pays gas in ether, so an address holding only
 * tokens cannot send them (funding it is the caller's business). The nonce comes from the node's pending count:
 * sends from one address must be serialised by the caller. `memo` has no meaning on EVM and is ignored.
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

    async createAddress() {
      const wallet = new Wallet(hexlify(randomBytes(32)));
      return { address: wallet.address, secret: wallet.privateKey };
    },

    normalizeAddress: normalizeEvmAddress,

    async balance(address, currency) {
      const entry = currencies.get(currency);
      const owner = requireAddress(address);
      if ('native' in entry) {
        return fromChainUnits(await provider.getBalance(owner), NATIVE_DECIMALS, entry.precision);
      }
      const data = ERC20.encodeFunctionData('balanceOf', [owner]);
      const [raw] = ERC20.decodeFunctionResult(
        'balanceOf',
        await provider.call({ to: entry.contract, data }),
      );
      return fromChainUnits(BigInt(raw), entry.decimals, entry.precision);
    },

    async send(sendRequest) {
      const wallet = new Wallet(sendRequest.fromSecret, provider);
      // Everything up to the broadcast only reads from the node: a failure here means nothing was sent.
      const populated = await wallet.populateTransaction(transferRequest(sendRequest));
      const signed = await wallet.signTransaction(populated);
      const txid = Transaction.from(signed).hash!;
      try {
        await provider.send('eth_sendRawTransaction', [signed]);
      } catch (error) {
        if (isAlreadyKnown(error)) return { txid };
        if (isNodeRejection(error)) throw new Error(`node refused ${txid}: ${shortMessage(error)}`);
        // The txid goes into the message: the operator can look it up before deciding anything.
        throw new BroadcastUnknownError(new Error(`${txid}: ${shortMessage(error)}`));
      }
      return { txid };
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

  function transferRequest({ to, currency, amount }: SendRequest): TransactionRequest {
    const recipient = requireAddress(to);
    if (amount <= 0n) throw new Error('amount must be positive');
    const entry = currencies.get(currency);
    if ('native' in entry) {
      return { to: recipient, value: toChainUnits(amount, NATIVE_DECIMALS, entry.precision) };
    }
    const raw = toChainUnits(amount, entry.decimals, entry.precision);
    return { to: entry.contract, data: ERC20.encodeFunctionData('transfer', [recipient, raw]) };
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
