import { encodeTronAddress, validateAddress } from '@exchange/shared';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { tronExplorer } from '../explorers.ts';
import { BroadcastUnknownError, type ChainPort, type SendRequest, type TransactionStatus } from '../port.ts';
import type { SignerPort, SigningPurpose, WalletKey } from '../signing.ts';
import { readBlock } from './blocks.ts';
import { createTronClient, int, type Json, TronHttpError, TronRequestError } from './client.ts';
import { decodeTronRawData } from './transaction.ts';
import { abiWord, accountId, fromChainUnits, fromChainUnitsCeil, toChainUnits } from './units.ts';

export { decodeTronRawData, type TronRawData } from './transaction.ts';

export interface TronChainOptions {
  /** The `blockchains.key`, e.g. `tron-sim`, `tron-mainnet`. */
  key: string;
  /** The full node HTTP API, e.g. `https://api.trongrid.io` or the simulator's URL. */
  apiUrl: string;
  /** Sent as `TRON-PRO-API-KEY`, as TronGrid wants. */
  apiKey?: string;
  signer: SignerPort;
  /** The USDT TRC-20 contract (Base58Check), e.g. mainnet `TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`. */
  usdtContract: string;
  /** Precision of each carried currency, e.g. `{trx: 6, usdt: 6}` (`trx` native, `usdt` the TRC-20). */
  currencies: Record<string, number>;
  /** fee_limit of a TRC-20 transfer, in sun (default 30 TRX: more than a transfer to a new holder burns). */
  feeLimitSun?: bigint;
  /** How long one HTTP call may take (default 30 s). */
  timeoutMs?: number;
}

/** The node refused a transaction (broadcast `code`, or a build error); nothing was sent. */
export class TronRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'TronRefusedError';
  }
}

/** Energy of a USDT transfer to an address holding none (mainnet figure, dynamic energy included): the worst case. */
const TRC20_TRANSFER_ENERGY = 130_285n;
/** Bandwidth of a signed TRC-20 transfer with its 64-byte result allowance (about 345 bytes on mainnet). */
const TRC20_TRANSFER_BYTES = 345n;
/** Bytes a transaction is charged beyond its serialized size (java-tron's MAX_RESULT_SIZE_IN_TX). */
const RESULT_SIZE = 64n;
/** A signature is 65 bytes: r ‖ s ‖ v. */
const SIGNATURE_BYTES = 65n;
/** A transaction built now must expire within a day (the node's limit); a longer one is not what we asked for. */
const MAX_EXPIRATION_MS = 24n * 3600_000n;

const DEFAULT_FEE_LIMIT_SUN = 30_000_000n;
const TRANSFER_FUNCTION = 'transfer(address,uint256)';

/**
 * The chain port over a java-tron full node's HTTP API (TronGrid or our simulator).
 *
 * Sends are built by the node (`createtransaction`, `triggersmartcontract`), then decoded here from
 * `raw_data_hex` and compared with the request (owner, recipient, amount, contract, fee_limit; txID =
 * sha256(raw_data)) before the signer sees them; then `broadcasttransaction`. A TRC-20 transfer's fees are paid in
 * TRX by the sender: bandwidth (free daily allowance, else burnt) and energy burnt up to `feeLimitSun`.
 * `memo` is not written on chain.
 */
export function createTronChain(options: TronChainOptions): ChainPort {
  const client = createTronClient(options);
  const usdtContract = validateAddress('tron', options.usdtContract);
  if (!usdtContract) throw new Error(`not a TRON address: ${options.usdtContract}`);
  const feeLimit = options.feeLimitSun ?? DEFAULT_FEE_LIMIT_SUN;
  const precisionOf = (currency: string): number => {
    const precision = options.currencies[currency];
    if (precision === undefined || (currency !== 'trx' && currency !== 'usdt')) {
      throw new Error(`${options.key} does not carry ${currency}`);
    }
    return precision;
  };

  const account = (address: string) => client.call('/wallet/getaccount', { address });
  const chainParameters = async (): Promise<Map<string, bigint>> => {
    const answer = await client.call('/wallet/getchainparameters');
    const list = Array.isArray(answer.chainParameter) ? (answer.chainParameter as Json[]) : [];
    return new Map(list.map((p) => [String(p.key), int(p.value)]));
  };
  const parameter = (params: Map<string, bigint>, key: string) => {
    const value = params.get(key);
    if (value === undefined) throw new Error(`the node has no chain parameter ${key}`);
    return value;
  };

  async function tokenBalance(address: string): Promise<bigint> {
    const answer = await client.call('/wallet/triggerconstantcontract', {
      owner_address: address,
      contract_address: usdtContract,
      function_selector: 'balanceOf(address)',
      parameter: abiWord(accountId(address)),
    });
    const result = answer.result as Json | undefined;
    const ret = (answer.transaction as Json | undefined)?.ret as Json[] | undefined;
    const output = (answer.constant_result as unknown[] | undefined)?.[0];
    if (result?.result !== true || ret?.[0]?.ret === 'FAILED' || typeof output !== 'string' || !output) {
      throw new Error(`balanceOf(${address}) failed: ${JSON.stringify(answer).slice(0, 300)}`);
    }
    return BigInt(`0x${output}`);
  }

  async function headHeight(): Promise<number> {
    const block = await client.call('/wallet/getnowblock');
    return Number(int(((block.block_header as Json | undefined)?.raw_data as Json | undefined)?.number));
  }

  /** Builds with the node, checks, signs and broadcasts one transfer (chain units). */
  async function transfer(
    purpose: SigningPurpose,
    from: WalletKey,
    to: string,
    currency: 'trx' | 'usdt',
    raw: bigint,
  ): Promise<string> {
    const built =
      currency === 'trx' ? await buildTrx(from.address, to, raw) : await buildToken(from.address, to, raw);
    const checked = checkBuilt(built, { owner: from.address, to, amount: raw, currency });
    const { signature } = await options.signer.signTron({
      network: options.key,
      purpose,
      transaction: checked,
      key: from,
    });
    return broadcast(built, signature);
  }

  async function buildTrx(owner: string, to: string, amount: bigint): Promise<Json> {
    try {
      return await client.call('/wallet/createtransaction', { owner_address: owner, to_address: to, amount });
    } catch (error) {
      if (error instanceof TronRequestError)
        throw new TronRefusedError('CONTRACT_VALIDATE_ERROR', error.message);
      throw error;
    }
  }

  async function buildToken(owner: string, to: string, amount: bigint): Promise<Json> {
    const answer = await client.call('/wallet/triggersmartcontract', {
      owner_address: owner,
      contract_address: usdtContract,
      function_selector: TRANSFER_FUNCTION,
      parameter: abiWord(accountId(to)) + abiWord(amount),
      fee_limit: feeLimit,
      call_value: 0,
    });
    const result = (answer.result ?? {}) as Json;
    if (result.result !== true || !answer.transaction) {
      throw new TronRefusedError(String(result.code ?? 'OTHER_ERROR'), readMessage(result.message));
    }
    return answer.transaction as Json;
  }

  /** Never sign what a node built blindly: the bytes must say exactly what we asked. */
  function checkBuilt(
    built: Json,
    want: { owner: string; to: string; amount: bigint; currency: 'trx' | 'usdt' },
  ): { txID: string; raw_data_hex: string } {
    const rawDataHex = built.raw_data_hex;
    if (typeof rawDataHex !== 'string' || typeof built.txID !== 'string') {
      throw new Error('the node returned no raw_data_hex/txID');
    }
    const tx = decodeTronRawData(rawDataHex);
    const problems: string[] = [];
    if (tx.txID !== built.txID.toLowerCase()) problems.push('txID is not sha256(raw_data)');
    if (tx.owner !== want.owner) problems.push(`owner ${tx.owner}`);
    if (tx.to !== want.to) problems.push(`recipient ${tx.to}`);
    if (tx.amount !== want.amount) problems.push(`amount ${tx.amount}`);
    if (want.currency === 'trx') {
      if (tx.type !== 'TransferContract') problems.push(`type ${tx.type}`);
      if (tx.feeLimit !== 0n) problems.push(`fee_limit ${tx.feeLimit}`);
    } else {
      if (tx.type !== 'TriggerSmartContract') problems.push(`type ${tx.type}`);
      if (tx.contract !== usdtContract) problems.push(`contract ${tx.contract}`);
      if (tx.feeLimit !== feeLimit) problems.push(`fee_limit ${tx.feeLimit}`);
    }
    if (tx.memo !== '') problems.push('a memo');
    const now = BigInt(Date.now());
    if (tx.expiration <= now || tx.expiration > now + MAX_EXPIRATION_MS)
      problems.push(`expiration ${tx.expiration}`);
    if (problems.length > 0) {
      throw new Error(
        `${options.key}: the node built a transaction we did not ask for (${problems.join(', ')})`,
      );
    }
    return { txID: tx.txID, raw_data_hex: rawDataHex };
  }

  async function broadcast(built: Json, signature: string): Promise<string> {
    const txid = String(built.txID).toLowerCase();
    let answer: Json;
    try {
      answer = await client.call('/wallet/broadcasttransaction', {
        txID: built.txID,
        raw_data: built.raw_data,
        raw_data_hex: built.raw_data_hex,
        signature: [signature],
      });
    } catch (error) {
      // A servlet error ({"Error": …}) or an explicit refusal of the gateway (key, quota) did not pool it.
      if (error instanceof TronRequestError)
        throw new TronRefusedError('OTHER_ERROR', `${txid}: ${error.message}`);
      if (error instanceof TronHttpError && [400, 401, 403, 413, 429].includes(error.status)) {
        throw new TronRefusedError(`HTTP_${error.status}`, `${txid}: ${error.message}`);
      }
      // The txid goes into the message: the operator can look it up before deciding anything.
      throw new BroadcastUnknownError(
        new Error(`${txid}: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    if (answer.result === true) return txid;
    const code = String(answer.code ?? 'OTHER_ERROR');
    if (code === 'DUP_TRANSACTION_ERROR') return txid;
    throw new TronRefusedError(code, `node refused ${txid}: ${readMessage(answer.message)}`);
  }

  /** Bandwidth the owner still has today (free allowance plus staked), from `getaccountnet`. */
  async function bandwidthLeft(address: string): Promise<bigint> {
    const net = await client.call('/wallet/getaccountnet', { address });
    return int(net.freeNetLimit) - int(net.freeNetUsed) + int(net.NetLimit) - int(net.NetUsed);
  }

  async function sweepTrx(from: WalletKey, to: string, precision: number) {
    const balance = int((await account(from.address)).balance);
    if (balance <= 0n) return null;
    const params = await chainParameters();
    const recipientExists = Object.keys(await account(to)).length > 0;
    let fee = 0n;
    if (!recipientExists) {
      // Creating the account: the system-contract fee, and a bandwidth fee instead of the free allowance.
      fee =
        parameter(params, 'getCreateNewAccountFeeInSystemContract') +
        parameter(params, 'getCreateAccountFee');
    } else {
      const left = await bandwidthLeft(from.address);
      // The fee changes the amount, whose varint length changes the size: settle in a few rounds.
      for (let round = 0; round < 3; round++) {
        const amount = balance - fee;
        if (amount <= 0n) return null;
        const built = await buildTrx(from.address, to, amount);
        const rawBytes = BigInt(String(built.raw_data_hex).length / 2);
        const bytes = signedSize(rawBytes) + RESULT_SIZE;
        const next = bytes <= left ? 0n : bytes * parameter(params, 'getTransactionFee');
        if (next === fee) break;
        fee = next;
      }
    }
    const amount = fromChainUnits(balance - fee, precision);
    if (amount <= 0n) return null;
    const raw = toChainUnits(amount, precision);
    const txid = await transfer({ kind: 'sweep' }, from, to, 'trx', raw);
    return { txid, from: [from.address], amount };
  }

  async function sweepToken(from: WalletKey, to: string, precision: number) {
    const tokens = await tokenBalance(from.address);
    const amount = fromChainUnits(tokens, precision);
    if (amount <= 0n) return null;
    const raw = toChainUnits(amount, precision);
    // The address pays the energy and bandwidth in TRX: without enough, the call would fail and burn it anyway.
    const estimate = await client.call('/wallet/triggerconstantcontract', {
      owner_address: from.address,
      contract_address: usdtContract,
      function_selector: TRANSFER_FUNCTION,
      parameter: abiWord(accountId(to)) + abiWord(raw),
    });
    const params = await chainParameters();
    const energyCost = int(estimate.energy_used) * parameter(params, 'getEnergyFee');
    const bandwidthCost =
      (await bandwidthLeft(from.address)) >= TRC20_TRANSFER_BYTES
        ? 0n
        : TRC20_TRANSFER_BYTES * parameter(params, 'getTransactionFee');
    const trx = int((await account(from.address)).balance);
    if (trx < energyCost + bandwidthCost || energyCost > feeLimit) return null;
    const txid = await transfer({ kind: 'sweep' }, from, to, 'usdt', raw);
    return { txid, from: [from.address], amount };
  }

  return {
    key: options.key,
    explorer: tronExplorer(options.apiUrl),
    keyScheme: { purpose: 44, coinType: 195, nativeCurrency: 'trx' },

    addressOf(publicKey) {
      const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
      return encodeTronAddress(keccak_256(uncompressed.subarray(1)).subarray(12));
    },

    latestBlock: headHeight,

    async block(height) {
      const trxPrecision = options.currencies.trx ?? null;
      const usdtPrecision = options.currencies.usdt;
      const token =
        usdtPrecision === undefined
          ? null
          : { currency: 'usdt', precision: usdtPrecision, contractId: accountId(usdtContract) };
      return readBlock(client, height, { token, trxPrecision });
    },

    normalizeAddress(address) {
      return validateAddress('tron', address);
    },

    async balance(address, currency) {
      const precision = precisionOf(currency);
      const owner = requireAddress(address);
      if (currency === 'trx') return fromChainUnits(int((await account(owner)).balance), precision);
      return fromChainUnits(await tokenBalance(owner), precision);
    },

    async send(request: SendRequest) {
      const precision = precisionOf(request.currency);
      const to = requireAddress(request.to);
      if (request.amount <= 0n) throw new Error('amount must be positive');
      const raw = toChainUnits(request.amount, precision);
      const currency = request.currency as 'trx' | 'usdt';
      return { txid: await transfer(request.purpose, request.from, to, currency, raw) };
    },

    async sweep(request) {
      const precision = precisionOf(request.currency);
      const to = requireAddress(request.to);
      const transfers = [];
      for (const from of request.from) {
        const moved =
          request.currency === 'trx'
            ? await sweepTrx(from, to, precision)
            : await sweepToken(from, to, precision);
        if (moved) transfers.push(moved);
      }
      return { transfers };
    },

    async sweepFee(currency) {
      precisionOf(currency);
      if (currency === 'trx') return 0n;
      const params = await chainParameters();
      const sun =
        TRC20_TRANSFER_ENERGY * parameter(params, 'getEnergyFee') +
        TRC20_TRANSFER_BYTES * parameter(params, 'getTransactionFee');
      return fromChainUnitsCeil(sun, precisionOf('trx'));
    },

    async transaction(txid): Promise<TransactionStatus> {
      const info = await client.call('/wallet/gettransactioninfobyid', { value: txid });
      if (info.blockNumber !== undefined) {
        const height = Number(int(info.blockNumber));
        const receipt = (info.receipt ?? {}) as Json;
        const failed =
          info.result === 'FAILED' || (receipt.result !== undefined && receipt.result !== 'SUCCESS');
        const latest = await headHeight();
        return {
          state: failed ? 'failed' : 'confirmed',
          height,
          confirmations: Math.max(0, latest - height + 1),
        };
      }
      const pending = await client.call('/wallet/gettransactionfrompending', { value: txid });
      if (pending.txID) return { state: 'pending', height: null, confirmations: 0 };
      const known = await client.call('/wallet/gettransactionbyid', { value: txid });
      return { state: known.txID ? 'pending' : 'unknown', height: null, confirmations: 0 };
    },
  };
}

function requireAddress(address: string): string {
  const valid = validateAddress('tron', address);
  if (!valid) throw new Error(`not a TRON address: ${address}`);
  return valid;
}

/** Size of a signed Transaction: raw_data (tag, length, bytes) and one signature (tag, length, 65 bytes). */
function signedSize(rawBytes: bigint): bigint {
  let lengthBytes = 1n;
  for (let n = rawBytes >> 7n; n > 0n; n >>= 7n) lengthBytes++;
  return 1n + lengthBytes + rawBytes + 2n + SIGNATURE_BYTES;
}

/** A node message: UTF-8 with `visible: true`, hex of UTF-8 otherwise. */
function readMessage(message: unknown): string {
  if (typeof message !== 'string') return '';
  if (/^([0-9a-fA-F]{2})+$/.test(message)) {
    const text = Buffer.from(message, 'hex').toString('utf8');
    if (/^[\x20-\x7e]+$/.test(text)) return text;
  }
  return message;
}
