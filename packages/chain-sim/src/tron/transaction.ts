import { hexToBytes, int64 } from './codec.ts';
import { ProtoWriter } from './protobuf.ts';

/**
 * `Transaction.raw` as the node prints it with `visible: false` (hex addresses and bytes, int64 as numbers), and
 * its protobuf encoding. Only the two contract types the simulator executes are known: TransferContract (1) and
 * TriggerSmartContract (31).
 */
export interface RawData {
  contract: RawContract[];
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  timestamp: number;
  fee_limit?: number;
  data?: string;
}

export interface RawContract {
  parameter: { value: Record<string, unknown>; type_url: string };
  type: string;
  Permission_id?: number;
}

export const CONTRACT_TYPES: Record<string, number> = { TransferContract: 1, TriggerSmartContract: 31 };
const TYPE_URL_PREFIX = 'type.googleapis.com/protocol.';

/** The contract of a TRX transfer, as `/wallet/createtransaction` builds it. */
export function transferContract(owner: string, to: string, amount: bigint): RawContract {
  return {
    parameter: {
      value: { amount: Number(amount), owner_address: owner, to_address: to },
      type_url: `${TYPE_URL_PREFIX}TransferContract`,
    },
    type: 'TransferContract',
  };
}

/** The contract of a smart-contract call, as `/wallet/triggersmartcontract` builds it. */
export function triggerContract(owner: string, contract: string, data: string, callValue = 0n): RawContract {
  const value: Record<string, unknown> = { data, owner_address: owner, contract_address: contract };
  if (callValue > 0n) value.call_value = Number(callValue);
  return {
    parameter: { value, type_url: `${TYPE_URL_PREFIX}TriggerSmartContract` },
    type: 'TriggerSmartContract',
  };
}

/** Thrown for a raw_data the node cannot turn into protobuf (a missing or mistyped field). */
export class RawDataError extends Error {}

function bytesField(value: unknown, name: string): Uint8Array {
  if (value === undefined || value === null || value === '') return new Uint8Array();
  if (typeof value !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(value)) throw new RawDataError(`bad ${name}`);
  return hexToBytes(value);
}

function int64Field(value: unknown, name: string): bigint {
  if (value === undefined || value === null) return 0n;
  const n = int64(value);
  if (n === null) throw new RawDataError(`bad ${name}`);
  return n;
}

function encodeContractValue(type: string, value: Record<string, unknown>): Uint8Array {
  const w = new ProtoWriter();
  if (type === 'TransferContract') {
    return w
      .bytes(1, bytesField(value.owner_address, 'owner_address'))
      .bytes(2, bytesField(value.to_address, 'to_address'))
      .varint(3, int64Field(value.amount, 'amount'))
      .finish();
  }
  if (type === 'TriggerSmartContract') {
    return w
      .bytes(1, bytesField(value.owner_address, 'owner_address'))
      .bytes(2, bytesField(value.contract_address, 'contract_address'))
      .varint(3, int64Field(value.call_value, 'call_value'))
      .bytes(4, bytesField(value.data, 'data'))
      .varint(5, int64Field(value.call_token_value, 'call_token_value'))
      .varint(6, int64Field(value.token_id, 'token_id'))
      .finish();
  }
  throw new RawDataError(`contract type ${type} is not supported`);
}

/** The protobuf bytes of `Transaction.raw`: sha256 of them is the txID, and what is signed. */
export function encodeRawData(raw: RawData): Uint8Array {
  if (!Array.isArray(raw.contract)) throw new RawDataError('raw_data.contract is not an array');
  const w = new ProtoWriter()
    .bytes(1, bytesField(raw.ref_block_bytes, 'ref_block_bytes'))
    .bytes(4, bytesField(raw.ref_block_hash, 'ref_block_hash'))
    .varint(8, int64Field(raw.expiration, 'expiration'))
    .bytes(10, bytesField(raw.data, 'data'));
  for (const contract of raw.contract) {
    const type = CONTRACT_TYPES[contract?.type];
    if (type === undefined || typeof contract.parameter?.value !== 'object') {
      throw new RawDataError(`contract type ${String(contract?.type)} is not supported`);
    }
    const any = new ProtoWriter()
      .string(1, contract.parameter.type_url ?? '')
      .bytes(2, encodeContractValue(contract.type, contract.parameter.value))
      .finish();
    const encoded = new ProtoWriter()
      .varint(1, type)
      .message(2, any)
      .varint(5, int64Field(contract.Permission_id, 'Permission_id'))
      .finish();
    w.message(11, encoded, true);
  }
  return w
    .varint(14, int64Field(raw.timestamp, 'timestamp'))
    .varint(18, int64Field(raw.fee_limit, 'fee_limit'))
    .finish();
}

/** The serialized size of the signed `Transaction` (raw_data, signatures; `ret` cleared), as bandwidth counts it. */
export function signedSize(rawBytes: Uint8Array, signatures: Uint8Array[]): number {
  const w = new ProtoWriter().message(1, rawBytes);
  for (const signature of signatures) w.message(2, signature, true);
  return w.finish().length;
}
