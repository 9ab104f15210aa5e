import { hex } from '@scure/base';
import { BtcAmount, type DecodedTx, scriptAsm, scriptPubKeyJson } from './codec.ts';
import type { BlockRow } from './store.ts';

/**
 * Core's JSON views of transactions and blocks (TxToUniv, blockToJSON), with Core's field names. Amounts are
 * {@link BtcAmount}s, written as numbers with 8 decimals.
 */

/** Regtest's difficulty at bits 0x207fffff, as Core prints it. */
export const REGTEST_DIFFICULTY = 4.656542373906925e-10;

/** A transaction as `getrawtransaction` (verbose) and `getblock` (verbosity 2) show it. */
export function txJson(tx: DecodedTx, fee: bigint | null, withHex = true): Record<string, unknown> {
  const coinbase = tx.inputs.length === 1 && tx.inputs[0]?.txid === '0'.repeat(64);
  return {
    txid: tx.txid,
    hash: tx.wtxid,
    version: tx.version,
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    locktime: tx.lockTime,
    vin: tx.inputs.map((input) => {
      const witness =
        input.witness.length > 0 ? { txinwitness: input.witness.map((w) => hex.encode(w)) } : {};
      if (coinbase) return { coinbase: hex.encode(input.scriptSig), ...witness, sequence: input.sequence };
      return {
        txid: input.txid,
        vout: input.vout,
        scriptSig: { asm: scriptAsm(input.scriptSig), hex: hex.encode(input.scriptSig) },
        ...witness,
        sequence: input.sequence,
      };
    }),
    vout: tx.outputs.map((output, n) => ({
      value: new BtcAmount(output.value),
      n,
      scriptPubKey: scriptPubKeyJson(output.script),
    })),
    ...(fee !== null && !coinbase ? { fee: new BtcAmount(fee) } : {}),
    ...(withHex ? { hex: hex.encode(tx.raw) } : {}),
  };
}

/** Chain work of a regtest chain of `height + 1` blocks (2 per block at bits 0x207fffff), as 64 hex digits. */
export function chainwork(height: number): string {
  return (BigInt(height + 1) * 2n).toString(16).padStart(64, '0');
}

/** The header fields of `getblock` / `getblockheader`. */
export function headerJson(
  block: BlockRow,
  tipHeight: number,
  nextHash: string | null,
): Record<string, unknown> {
  const view = new DataView(block.header.buffer, block.header.byteOffset, 80);
  const version = view.getUint32(0, true);
  const merkle = hex.encode(Uint8Array.from(block.header.subarray(36, 68)).reverse());
  return {
    hash: block.hash,
    confirmations: block.active ? tipHeight - block.height + 1 : -1,
    height: block.height,
    version,
    versionHex: version.toString(16).padStart(8, '0'),
    merkleroot: merkle,
    time: block.time,
    mediantime: block.time,
    nonce: view.getUint32(76, true),
    bits: view.getUint32(72, true).toString(16).padStart(8, '0'),
    difficulty: REGTEST_DIFFICULTY,
    chainwork: chainwork(block.height),
    ...(block.height > 0 ? { previousblockhash: block.prevHash } : {}),
    ...(nextHash ? { nextblockhash: nextHash } : {}),
  };
}
