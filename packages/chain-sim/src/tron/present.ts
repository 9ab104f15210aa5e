import { toBase58 } from './codec.ts';
import type { BlockRow, TxRow } from './store.ts';

/**
 * JSON as the node prints it. Inside the simulator addresses are hex (41…); with `visible: true` the node prints
 * them in Base58Check, and the 20-byte address of an event log as the contract's Base58Check address.
 */
const ADDRESS_KEYS = new Set([
  'owner_address',
  'to_address',
  'contract_address',
  'address',
  'witness_address',
  'caller_address',
  'transferTo_address',
]);

export function visibleForm(value: unknown, visible: boolean, key = ''): unknown {
  if (!visible) return value;
  if (typeof value === 'string' && ADDRESS_KEYS.has(key)) {
    if (/^41[0-9a-f]{40}$/.test(value)) return toBase58(value);
    if (key === 'address' && /^[0-9a-f]{40}$/.test(value)) return toBase58(`41${value}`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => visibleForm(v, visible, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleForm(v, visible, k)]));
  }
  return value;
}

/** A transaction of a block or the pool, as `gettransactionbyid` prints it. */
export function transactionJson(tx: TxRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (tx.contractRet) out.ret = [{ contractRet: tx.contractRet }];
  out.signature = tx.signature;
  out.txID = tx.txid;
  out.raw_data = tx.rawData;
  out.raw_data_hex = tx.rawDataHex;
  return out;
}

/** A block as `getblockbynum` prints it: zero fields and an empty transaction list are left out (proto3). */
export function blockJson(block: BlockRow, txs: TxRow[]): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  if (block.number > 0) raw.number = block.number;
  raw.txTrieRoot = block.txTrieRoot;
  raw.witness_address = block.witnessAddress;
  raw.parentHash = block.parentHash;
  raw.version = 34;
  raw.timestamp = block.timestamp;
  const out: Record<string, unknown> = {
    blockID: block.blockId,
    block_header: { raw_data: raw, witness_signature: block.witnessSignature },
  };
  if (txs.length > 0) out.transactions = txs.map(transactionJson);
  return out;
}
