import { encodeTronAddress } from '@exchange/shared';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

/**
 * Decoding of a TRON transaction's `raw_data_hex` (protobuf `Transaction.raw`, TRON's core/Tron.proto, with the
 * contract messages of core/contract/*.proto), written from the protocol definitions: what the bytes a signature
 * covers actually say, whatever JSON came with them. Strict: only a transaction with one TRX transfer
 * (TransferContract) or one TRC-20 `transfer(address,uint256)` call (TriggerSmartContract) decodes; any field we
 * do not expect (multi-signature permission, scripts, TRC-10 values, another call) is refused.
 */

/** What a TRON transaction does, read from its raw_data bytes. Addresses are Base58Check (`T…`). */
export interface TronRawData {
  /** `TransferContract` moves TRX; `TriggerSmartContract` is a TRC-20 `transfer(to, amount)` on `contract`. */
  type: 'TransferContract' | 'TriggerSmartContract';
  /** The account that signs and pays. */
  owner: string;
  /** The recipient: of the TRX, or of the tokens (from the call data). */
  to: string;
  /** Sun for TRX; token base units for a TRC-20 transfer. */
  amount: bigint;
  /** The token contract called; null for a TRX transfer. */
  contract: string | null;
  /** The call data (hex, selector included); '' for a TRX transfer. */
  data: string;
  /** TRX (sun) sent along with the call; always 0 for what decodes (a token transfer sends none). */
  callValue: bigint;
  /** Most TRX (sun) the call may burn for energy; 0 when absent. */
  feeLimit: bigint;
  /** Milliseconds since the epoch. */
  expiration: bigint;
  timestamp: bigint;
  /** TAPOS: the referenced block's number bytes 6..8 and id bytes 8..16, hex. */
  refBlockBytes: string;
  refBlockHash: string;
  /** The memo (raw_data.data), hex; '' when none. */
  memo: string;
  /** sha256 of the raw_data bytes: the txID. */
  txID: string;
}

/** `transfer(address,uint256)`. */
const TRANSFER_SELECTOR = 'a9059cbb';
const CONTRACT_TYPES: Record<number, TronRawData['type']> = {
  1: 'TransferContract',
  31: 'TriggerSmartContract',
};
const TYPE_URL_PREFIX = 'type.googleapis.com/protocol.';

/** One protobuf field: its number and its value (varint as bigint, length-delimited as bytes). */
type Field =
  | { field: number; varint: bigint; bytes: null }
  | { field: number; varint: null; bytes: Uint8Array };

/** Splits a protobuf message into fields; only wire types 0 (varint) and 2 (length-delimited) are accepted. */
function readFields(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (pos >= buf.length) throw new Error('truncated varint');
      const byte = buf[pos++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw new Error('varint too long');
  };
  while (pos < buf.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (field === 0) throw new Error('field number 0');
    if (wire === 0) fields.push({ field, varint: varint(), bytes: null });
    else if (wire === 2) {
      const length = Number(varint());
      if (pos + length > buf.length) throw new Error('truncated field');
      fields.push({ field, varint: null, bytes: buf.subarray(pos, pos + length) });
      pos += length;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return fields;
}

/** The fields of a message, each allowed once and of the stated kind; anything else is refused. */
function message(buf: Uint8Array, allowed: Record<number, 'varint' | 'bytes' | 'repeated'>) {
  const single = new Map<number, Field>();
  const repeated: Uint8Array[] = [];
  for (const f of readFields(buf)) {
    const kind = allowed[f.field];
    if (!kind) throw new Error(`unexpected field ${f.field}`);
    if (kind === 'repeated') {
      if (!f.bytes) throw new Error(`field ${f.field} is not a message`);
      repeated.push(f.bytes);
      continue;
    }
    if ((kind === 'varint') !== (f.varint !== null))
      throw new Error(`field ${f.field} has the wrong wire type`);
    if (single.has(f.field)) throw new Error(`field ${f.field} repeated`);
    single.set(f.field, f);
  }
  return {
    int: (n: number): bigint => {
      const v = single.get(n)?.varint ?? 0n;
      return BigInt.asIntN(64, v);
    },
    bytes: (n: number): Uint8Array => single.get(n)?.bytes ?? new Uint8Array(),
    repeated,
  };
}

function address(bytes: Uint8Array, what: string): string {
  if (bytes.length !== 21 || bytes[0] !== 0x41) throw new Error(`${what} is not a TRON address`);
  return encodeTronAddress(bytes.subarray(1));
}

/**
 * Decodes `raw_data_hex`. Throws when the bytes are not exactly one TRX transfer or one TRC-20 transfer call.
 */
export function decodeTronRawData(rawDataHex: string): TronRawData {
  if (!/^([0-9a-fA-F]{2})+$/.test(rawDataHex)) throw new Error('raw_data_hex is not hex');
  const bytes = hexToBytes(rawDataHex.toLowerCase());
  // Transaction.raw: 1 ref_block_bytes, 3 ref_block_num, 4 ref_block_hash, 8 expiration, 9 auths, 10 data,
  // 11 contract (repeated), 12 scripts, 14 timestamp, 18 fee_limit. auths/scripts/ref_block_num are not expected.
  const raw = message(bytes, {
    1: 'bytes',
    4: 'bytes',
    8: 'varint',
    10: 'bytes',
    11: 'repeated',
    14: 'varint',
    18: 'varint',
  });
  if (raw.repeated.length !== 1) throw new Error(`expected one contract, found ${raw.repeated.length}`);
  // Contract: 1 type, 2 parameter (google.protobuf.Any), 3 provider, 4 ContractName, 5 Permission_id.
  const contract = message(raw.repeated[0] as Uint8Array, { 1: 'varint', 2: 'bytes' });
  const type = CONTRACT_TYPES[Number(contract.int(1))];
  if (!type) throw new Error(`unsupported contract type ${contract.int(1)}`);
  // Any: 1 type_url, 2 value.
  const any = message(contract.bytes(2), { 1: 'bytes', 2: 'bytes' });
  const typeUrl = new TextDecoder().decode(any.bytes(1));
  if (typeUrl !== TYPE_URL_PREFIX + type) throw new Error(`type_url ${typeUrl} does not match ${type}`);

  const common = {
    feeLimit: raw.int(18),
    expiration: raw.int(8),
    timestamp: raw.int(14),
    refBlockBytes: bytesToHex(raw.bytes(1)),
    refBlockHash: bytesToHex(raw.bytes(4)),
    memo: bytesToHex(raw.bytes(10)),
    txID: bytesToHex(sha256(bytes)),
  };
  if (type === 'TransferContract') {
    // TransferContract: 1 owner_address, 2 to_address, 3 amount.
    const value = message(any.bytes(2), { 1: 'bytes', 2: 'bytes', 3: 'varint' });
    return {
      type,
      owner: address(value.bytes(1), 'owner_address'),
      to: address(value.bytes(2), 'to_address'),
      amount: value.int(3),
      contract: null,
      data: '',
      callValue: 0n,
      ...common,
    };
  }
  // TriggerSmartContract: 1 owner_address, 2 contract_address, 3 call_value, 4 data, 5 call_token_value, 6 token_id.
  const value = message(any.bytes(2), { 1: 'bytes', 2: 'bytes', 3: 'varint', 4: 'bytes' });
  const data = bytesToHex(value.bytes(4));
  if (!data.startsWith(TRANSFER_SELECTOR) || data.length !== 8 + 128) {
    throw new Error('the call is not transfer(address,uint256)');
  }
  if (value.int(3) !== 0n) throw new Error('the call sends TRX along');
  const toWord = data.slice(8, 72);
  if (!/^0{24}/.test(toWord)) throw new Error('the recipient word is not an address');
  return {
    type,
    owner: address(value.bytes(1), 'owner_address'),
    to: address(hexToBytes(`41${toWord.slice(24)}`), 'recipient'),
    amount: BigInt(`0x${data.slice(72)}`),
    contract: address(value.bytes(2), 'contract_address'),
    data,
    callValue: 0n,
    ...common,
  };
}
