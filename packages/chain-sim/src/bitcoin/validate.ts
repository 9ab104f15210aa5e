import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { COIN, classifyScript, compactSize, type DecodedTx, dsha256, formatBtc, wireHash } from './codec.ts';
import type { BitcoinStore, Coin, Queryable } from './store.ts';

/**
 * Mempool acceptance as Bitcoin Core's `sendrawtransaction` / `testmempoolaccept` decide it, in Core's order
 * (MemPoolAccept::PreChecks, then the policy and script checks), with Core's reject reasons. What the
 * simulator does not model: replacement (RBF: any conflict is refused, as with `-mempoolfullrbf=0`), package
 * relay, and scripts other than P2WPKH in inputs (refused; outputs may be any standard script).
 */

/** Core's RPC error codes used here (src/rpc/protocol.h). */
export const RPC = {
  MISC_ERROR: -1,
  TYPE_ERROR: -3,
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  DATABASE_ERROR: -20,
  DESERIALIZATION_ERROR: -22,
  VERIFY_ERROR: -25,
  VERIFY_REJECTED: -26,
  VERIFY_ALREADY_IN_CHAIN: -27,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INVALID_REQUEST: -32600,
  PARSE_ERROR: -32700,
} as const;

export type Verdict =
  | { ok: true; fee: bigint; alreadyInMempool: boolean }
  | { ok: false; code: number; message: string; rejectReason: string };

const COINBASE_MATURITY = 100;
const MAX_MONEY = 21_000_000n * COIN;
/** -minrelaytxfee default: 1000 sat/kvB. */
const MIN_RELAY_SAT_PER_KVB = 1000n;
/** -dustrelayfee default: 3000 sat/kvB. */
const DUST_RELAY_SAT_PER_KVB = 3000n;
const MAX_STANDARD_WEIGHT = 400_000;
/** Core's MIN_STANDARD_TX_NONWITNESS_SIZE. */
const MIN_NONWITNESS_SIZE = 65;
const SIGHASH_ANYONECANPAY = 0x80;

const reject = (reason: string, detail?: string, code: number = RPC.VERIFY_REJECTED): Verdict => ({
  ok: false,
  code,
  message: detail ? `${reason}, ${detail}` : reason,
  rejectReason: reason,
});

/**
 * Checks `tx` for the mempool. `maxFeeRate` is sendrawtransaction's limit in sat/kvB (0: none).
 */
export async function checkForMempool(
  store: BitcoinStore,
  q: Queryable,
  tx: DecodedTx,
  maxFeeRate: bigint,
): Promise<Verdict> {
  const known = await store.transaction(q, tx.txid);
  if (known?.inMempool) return { ok: true, fee: known.fee ?? 0n, alreadyInMempool: true };

  // BroadcastTransaction: outputs already in the UTXO set mean the transaction is already confirmed.
  if (known?.blockHash) {
    const own = await store.coins(
      q,
      tx.outputs.map((_, vout) => ({ txid: tx.txid, vout })),
    );
    if ([...own.values()].some((coin) => coin.spentBy === null)) {
      return {
        ok: false,
        code: RPC.VERIFY_ALREADY_IN_CHAIN,
        message: 'Transaction outputs already in utxo set',
        rejectReason: 'txn-already-known',
      };
    }
  }

  const basic = checkTransaction(tx);
  if (basic) return basic;
  const standard = checkStandard(tx);
  if (standard) return standard;

  const coins = await store.coins(
    q,
    tx.inputs.map((i) => ({ txid: i.txid, vout: i.vout })),
  );
  for (const input of tx.inputs) {
    const coin = coins.get(`${input.txid}:${input.vout}`);
    if (coin?.spentBy && coin.spentInMempool) return reject('txn-mempool-conflict');
  }
  const tip = await store.tip(q);
  const spendHeight = (tip?.height ?? 0) + 1;
  let valueIn = 0n;
  const spent: Coin[] = [];
  for (const input of tx.inputs) {
    const coin = coins.get(`${input.txid}:${input.vout}`);
    if (!coin || coin.spentBy) {
      return {
        ok: false,
        code: RPC.VERIFY_ERROR,
        message: 'bad-txns-inputs-missingorspent',
        rejectReason: 'missing-inputs',
      };
    }
    if (coin.coinbase && spendHeight - (coin.height ?? spendHeight) < COINBASE_MATURITY) {
      return reject(
        'bad-txns-premature-spend-of-coinbase',
        `tried to spend coinbase at depth ${spendHeight - (coin.height ?? spendHeight)}`,
      );
    }
    valueIn += coin.value;
    spent.push(coin);
  }
  const valueOut = tx.outputs.reduce((sum, o) => sum + o.value, 0n);
  if (valueIn < valueOut) {
    return reject(
      'bad-txns-in-belowout',
      `value in (${formatMoney(valueIn)}) < value out (${formatMoney(valueOut)})`,
    );
  }
  const fee = valueIn - valueOut;
  const minFee = (MIN_RELAY_SAT_PER_KVB * BigInt(tx.vsize)) / 1000n;
  if (fee < minFee) return reject('min relay fee not met', `${fee} < ${minFee}`);

  for (const [index, coin] of spent.entries()) {
    const failure = verifyInput(tx, index, coin);
    if (failure) return failure;
  }

  // sendrawtransaction's maxfeerate (default 0.10 BTC/kvB) is checked on the accepted transaction's fee.
  if (maxFeeRate > 0n && fee > (maxFeeRate * BigInt(tx.vsize)) / 1000n) {
    return {
      ok: false,
      code: RPC.VERIFY_ERROR,
      message: 'Fee exceeds maximum configured by user (e.g. -maxtxfee, maxfeerate)',
      rejectReason: 'max-fee-exceeded',
    };
  }
  return { ok: true, fee, alreadyInMempool: false };
}

/** Consensus checks of a transaction alone (Core's CheckTransaction). */
function checkTransaction(tx: DecodedTx): Verdict | null {
  if (tx.inputs.length === 0) return reject('bad-txns-vin-empty');
  if (tx.outputs.length === 0) return reject('bad-txns-vout-empty');
  let total = 0n;
  for (const output of tx.outputs) {
    if (output.value > MAX_MONEY) return reject('bad-txns-vout-toolarge');
    total += output.value;
    if (total > MAX_MONEY) return reject('bad-txns-txouttotal-toolarge');
  }
  const seen = new Set<string>();
  for (const input of tx.inputs) {
    const key = `${input.txid}:${input.vout}`;
    if (seen.has(key)) return reject('bad-txns-inputs-duplicate');
    seen.add(key);
    if (input.txid === '0'.repeat(64) && input.vout === 0xffffffff) return reject('bad-txns-prevout-null');
  }
  return null;
}

/** Policy (Core's IsStandardTx and the size floor). */
function checkStandard(tx: DecodedTx): Verdict | null {
  if (tx.version < 1 || tx.version > 3) return reject('version');
  if (tx.weight > MAX_STANDARD_WEIGHT) return reject('tx-size');
  let dataOutputs = 0;
  for (const output of tx.outputs) {
    const { type } = classifyScript(output.script);
    if (type === 'nonstandard' || type === 'multisig' || type === 'pubkey') return reject('scriptpubkey');
    if (type === 'nulldata') {
      dataOutputs++;
      continue;
    }
    if (output.value < dustThreshold(output.script)) return reject('dust');
  }
  if (dataOutputs > 1) return reject('multi-op-return');
  const strippedSize = (tx.weight - tx.size) / 3;
  if (strippedSize < MIN_NONWITNESS_SIZE) return reject('tx-size-small');
  return null;
}

/** Core's GetDustThreshold: what spending the output would cost at the dust relay fee. */
export function dustThreshold(script: Uint8Array): bigint {
  const outputSize = 8 + 1 + script.length;
  const witness =
    script.length >= 4 &&
    script.length <= 42 &&
    (script[0] === 0 || (script[0] ?? 0) >= 0x51) &&
    script[1] === script.length - 2;
  const spendSize = witness ? 32 + 4 + 1 + Math.floor(107 / 4) + 4 : 32 + 4 + 1 + 107 + 4;
  return (DUST_RELAY_SAT_PER_KVB * BigInt(outputSize + spendSize)) / 1000n;
}

/** Script verification of input `index` spending `coin`: P2WPKH only (BIP141/BIP143). */
function verifyInput(tx: DecodedTx, index: number, coin: Coin): Verdict | null {
  const input = tx.inputs[index];
  if (!input) return null;
  const script = coin.script;
  const fail = (error: string) => reject(`mandatory-script-verify-flag-failed (${error})`);
  if (!(script.length === 22 && script[0] === 0x00 && script[1] === 0x14)) {
    return reject('non-mandatory-script-verify-flag (the simulator verifies P2WPKH inputs only)');
  }
  if (input.scriptSig.length > 0) return fail('Witness requires empty scriptSig');
  if (input.witness.length === 0) return fail('Witness program was passed an empty witness');
  if (input.witness.length !== 2) return fail('Witness program hash mismatch');
  const [signature, publicKey] = input.witness as [Uint8Array, Uint8Array];
  if (!equal(ripemd160(sha256(publicKey)), script.subarray(2))) return fail('Witness program hash mismatch');
  if (signature.length === 0)
    return fail('Script evaluated without error but finished with a false/empty top stack element');
  if (!isValidSignatureEncoding(signature)) return fail('Non-canonical DER signature');
  const hashType = signature[signature.length - 1] ?? 0;
  const digest = bip143Digest(tx, index, script.subarray(2), coin.value, hashType);
  let valid = false;
  try {
    valid = secp256k1.verify(signature.subarray(0, -1), digest, publicKey, {
      prehash: false,
      lowS: false,
      format: 'der',
    });
  } catch {
    valid = false;
  }
  if (!valid) return fail('Script evaluated without error but finished with a false/empty top stack element');
  if (publicKey.length !== 33)
    return reject('non-mandatory-script-verify-flag (Using non-compressed keys in segwit)');
  return null;
}

/** BIP143 signature hash of a P2WPKH input (script code = the P2PKH script of the key hash). */
export function bip143Digest(
  tx: DecodedTx,
  index: number,
  keyHash: Uint8Array,
  value: bigint,
  hashType: number,
): Uint8Array {
  const base = hashType & 0x1f;
  const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
  const single = base === 3;
  const none = base === 2;
  const zero: Uint8Array = new Uint8Array(32);
  const prevouts = anyoneCanPay
    ? zero
    : dsha256(concat(...tx.inputs.map((i) => concat(wireHash(i.txid), u32(i.vout)))));
  const sequences =
    anyoneCanPay || single || none ? zero : dsha256(concat(...tx.inputs.map((i) => u32(i.sequence))));
  let outputs = zero;
  if (!single && !none) outputs = dsha256(concat(...tx.outputs.map(serializeOutput)));
  else if (single && index < tx.outputs.length)
    outputs = dsha256(serializeOutput(tx.outputs[index] as (typeof tx.outputs)[0]));
  const input = tx.inputs[index] as (typeof tx.inputs)[0];
  const scriptCode = concat(Uint8Array.of(0x19, 0x76, 0xa9, 0x14), keyHash, Uint8Array.of(0x88, 0xac));
  return dsha256(
    concat(
      u32(tx.version),
      prevouts,
      sequences,
      wireHash(input.txid),
      u32(input.vout),
      scriptCode,
      u64(value),
      u32(input.sequence),
      outputs,
      u32(tx.lockTime),
      u32(hashType),
    ),
  );
}

/** BIP66 strict DER plus the hash type byte (Core's IsValidSignatureEncoding). */
function isValidSignatureEncoding(sig: Uint8Array): boolean {
  const at = (i: number) => sig[i] ?? 0;
  if (sig.length < 9 || sig.length > 73) return false;
  if (at(0) !== 0x30 || at(1) !== sig.length - 3) return false;
  const lenR = at(3);
  if (5 + lenR >= sig.length) return false;
  const lenS = at(5 + lenR);
  if (lenR + lenS + 7 !== sig.length) return false;
  if (at(2) !== 0x02 || lenR === 0 || at(4) & 0x80) return false;
  if (lenR > 1 && at(4) === 0 && !(at(5) & 0x80)) return false;
  if (at(lenR + 4) !== 0x02 || lenS === 0 || at(lenR + 6) & 0x80) return false;
  if (lenS > 1 && at(lenR + 6) === 0 && !(at(lenR + 7) & 0x80)) return false;
  return true;
}

/** Core's FormatMoney: BTC with trailing zeros trimmed to at least two decimals. */
function formatMoney(sats: bigint): string {
  return formatBtc(sats).replace(/(\.\d\d\d*?)0+$/, '$1');
}

function serializeOutput(output: { value: bigint; script: Uint8Array }): Uint8Array {
  return concat(u64(output.value), compactSize(output.script.length), output.script);
}

function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n >>> 0, true);
  return out;
}

function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
