import { encodeTronAddress } from '@exchange/shared';
import { hexToBytes } from '@noble/hashes/utils.js';
import type { ChainBlock, ChainTransfer } from '../port.ts';
import { int, type Json, type TronClient } from './client.ts';
import { fromChainUnits, logAddressId } from './units.ts';

/** keccak256("Transfer(address,address,uint256)"): the TRC-20 (ERC-20) Transfer event. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});

/**
 * A block's transfers (`getblockbynum`, and `gettransactioninfobyblocknum` for the logs):
 * - TRX: a TransferContract whose `ret[0].contractRet` is SUCCESS, listed with index -1 (a TRON transaction
 *   carries exactly one contract, so there is one such transfer per txid);
 * - the token: `Transfer` event logs of the configured contract in transactions whose receipt result is SUCCESS,
 *   listed with the log's position in the transaction's `log` list (0 and up).
 * The two index ranges never meet, so (txid, index) is unique. Amounts round down to the currency's precision;
 * a transfer that rounds to zero is left out.
 */
export async function readBlock(
  client: TronClient,
  height: number,
  options: {
    token: { currency: string; precision: number; contractId: string } | null;
    trxPrecision: number | null;
  },
): Promise<ChainBlock | null> {
  const block = await client.call('/wallet/getblockbynum', { num: height });
  if (typeof block.blockID !== 'string') return null;
  const header = obj(obj(block.block_header).raw_data);
  const transactions = asArray(block.transactions);
  const transfers: ChainTransfer[] = [];

  if (options.trxPrecision !== null) {
    for (const tx of transactions) {
      const contract = obj(asArray(obj(tx.raw_data).contract)[0]);
      if (contract.type !== 'TransferContract' || obj(asArray(tx.ret)[0]).contractRet !== 'SUCCESS') continue;
      const value = obj(obj(contract.parameter).value);
      const amount = fromChainUnits(int(value.amount), options.trxPrecision);
      if (amount <= 0n) continue;
      transfers.push({
        txid: String(tx.txID),
        index: -1,
        currency: 'trx',
        from: String(value.owner_address),
        to: String(value.to_address),
        amount,
      });
    }
  }

  const token = options.token;
  const calls = transactions.some(
    (tx) => obj(asArray(obj(tx.raw_data).contract)[0]).type === 'TriggerSmartContract',
  );
  if (token && calls) {
    const infos = await client.post('/wallet/gettransactioninfobyblocknum', { num: height });
    if (!Array.isArray(infos)) throw new Error(`gettransactioninfobyblocknum ${height}: not a list`);
    for (const info of infos as Json[]) {
      if (obj(info.receipt).result !== 'SUCCESS' || info.result === 'FAILED') continue;
      asArray(info.log).forEach((log, index) => {
        const topics = asArray(log.topics) as unknown as string[];
        if (logAddressId(log.address) !== token.contractId) return;
        if (topics.length !== 3 || String(topics[0]).toLowerCase() !== TRANSFER_TOPIC) return;
        const data = String(log.data ?? '');
        if (!/^[0-9a-fA-F]{64}$/.test(data)) return;
        const amount = fromChainUnits(BigInt(`0x${data}`), token.precision);
        if (amount <= 0n) return;
        transfers.push({
          txid: String(info.id),
          index,
          currency: token.currency,
          from: topicAddress(String(topics[1])),
          to: topicAddress(String(topics[2])),
          amount,
        });
      });
    }
  }

  return {
    height: Number(int(header.number)),
    hash: block.blockID,
    parentHash: String(header.parentHash ?? ''),
    transfers,
  };
}

function topicAddress(topic: string): string {
  return encodeTronAddress(hexToBytes(topic.slice(-40)));
}
