import { validateAddress } from '@exchange/shared';
import {
  type Block,
  dataLength,
  dataSlice,
  getAddress,
  id,
  isHexString,
  type JsonRpcProvider,
  type Log,
  type TransactionResponse,
  ZeroAddress,
} from 'ethers';
import type { ChainTransfer } from '../port.ts';
import { type EvmCurrencies, NATIVE_DECIMALS } from './currencies.ts';
import { fromChainUnits } from './units.ts';

/** topic0 of the ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)` event. */
export const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

/** `index` of a native ether transfer: log indexes start at 0, so the two kinds never share a (txid, index). */
export const NATIVE_TRANSFER_INDEX = -1;

/**
 * The checksummed form of a plain `0x` + 40 hex address, or null. A mixed-case address with a wrong checksum is
 * refused (it is a typo), and so is the zero address: anything sent there is burnt.
 */
export function normalizeEvmAddress(address: string): string | null {
  const normalized = validateAddress('evm', address);
  return normalized === ZeroAddress ? null : normalized;
}

/**
 * Every credit in `block` of a currency the network carries. Candidates come from the block's transactions
 * (ether value) and from `eth_getLogs` (Transfer events of the configured contracts); each is then checked against
 * its receipt: status 1, mined in this very block, and for tokens a well-formed Transfer log of an allowed contract.
 */
export async function readBlockTransfers(
  provider: JsonRpcProvider,
  block: Block,
  currencies: EvmCurrencies,
): Promise<ChainTransfer[]> {
  const byHash = new Map<string, TransactionResponse>();
  const candidates = new Set<string>();
  for (const tx of block.prefetchedTransactions) {
    byHash.set(tx.hash, tx);
    if (currencies.native && tx.to && tx.value > 0n) candidates.add(tx.hash);
  }
  if (currencies.tokensByContract.size > 0) {
    const logs = await provider.getLogs({
      blockHash: block.hash!,
      address: [...currencies.tokensByContract.keys()],
      topics: [TRANSFER_TOPIC],
    });
    for (const log of logs) candidates.add(log.transactionHash);
  }

  const receipts = await Promise.all([...candidates].map((hash) => provider.getTransactionReceipt(hash)));
  const transfers: { position: number; transfer: ChainTransfer }[] = [];
  for (const receipt of receipts) {
    // A receipt from another block means a reorg happened while we read: the caller reads the block again.
    if (!receipt || receipt.blockHash !== block.hash) {
      throw new Error(`block ${block.number} changed while it was read`);
    }
    if (receipt.status !== 1) continue;
    const tx = byHash.get(receipt.hash);
    const native = currencies.native;
    if (native && tx?.to && tx.value > 0n) {
      const amount = fromChainUnits(tx.value, NATIVE_DECIMALS, native.precision);
      if (amount > 0n) {
        transfers.push({
          position: receipt.index * 1_000_000,
          transfer: {
            txid: receipt.hash,
            index: NATIVE_TRANSFER_INDEX,
            currency: native.currency,
            to: getAddress(tx.to),
            from: getAddress(tx.from),
            amount,
          },
        });
      }
    }
    for (const log of receipt.logs) {
      const transfer = tokenTransfer(log, currencies);
      if (transfer) transfers.push({ position: receipt.index * 1_000_000 + 1 + log.index, transfer });
    }
  }
  return transfers.sort((a, b) => a.position - b.position).map((entry) => entry.transfer);
}

/** A Transfer log of an allowed token contract, decoded; null for anything else or anything malformed. */
function tokenTransfer(log: Log, currencies: EvmCurrencies): ChainTransfer | null {
  const token = currencies.tokensByContract.get(log.address.toLowerCase());
  if (!token || log.removed) return null;
  const [topic, fromTopic, toTopic] = log.topics;
  if (log.topics.length !== 3 || topic !== TRANSFER_TOPIC || !fromTopic || !toTopic) return null;
  if (!isHexString(log.data) || dataLength(log.data) !== 32) return null;
  const from = topicAddress(fromTopic);
  const to = topicAddress(toTopic);
  if (!from || !to) return null;
  const amount = fromChainUnits(BigInt(log.data), token.decimals, token.precision);
  if (amount <= 0n) return null;
  return { txid: log.transactionHash, index: log.index, currency: token.currency, to, from, amount };
}

/** An indexed address is left-padded to 32 bytes; any other padding is not an address. */
function topicAddress(topic: string): string | null {
  if (dataLength(topic) !== 32 || BigInt(dataSlice(topic, 0, 12)) !== 0n) return null;
  return getAddress(dataSlice(topic, 12));
}
