import type { BtcNetwork } from '@exchange/shared';
import { base64, hex } from '@scure/base';
import { Address, OutScript, Transaction } from '@scure/btc-signer';
import type { Utxo } from './utxos-repository.ts';

/**
 * Building our transactions: P2WPKH inputs (BIP84 keys), outputs to any standard script, fees from a rate in
 * sat/kvB over a size estimate that is never below the signed size.
 */

/** @scure/btc-signer's parameters of a network. */
export function scureNetwork(network: BtcNetwork) {
  if (network === 'mainnet') return { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 };
  return { bech32: network === 'regtest' ? 'bcrt' : 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
}
export type ScureNetwork = ReturnType<typeof scureNetwork>;

/** Version, locktime, counts and the segwit marker, rounded up (10.5 vB). */
const OVERHEAD_VBYTES = 11;
/**
 * A P2WPKH input: 41 bytes outside the witness + (1 + 1 + 72 + 1 + 33) / 4 for the witness with the longest DER
 * signature, rounded up.
 */
const P2WPKH_INPUT_VBYTES = 68;
/** Core's -dustrelayfee default, sat/kvB. */
const DUST_RELAY_SAT_PER_KVB = 3000n;

export function outputScript(address: string, network: ScureNetwork): Uint8Array {
  return OutScript.encode(Address(network).decode(address));
}

/** Virtual size of a transaction with `inputs` P2WPKH inputs and outputs of these scripts. */
export function estimateVsize(inputs: number, outputScripts: Uint8Array[]): number {
  return (
    OVERHEAD_VBYTES + inputs * P2WPKH_INPUT_VBYTES + outputScripts.reduce((n, s) => n + 8 + 1 + s.length, 0)
  );
}

/** The fee for `vsize` at `satPerKvB`, rounded up. */
export function feeFor(vsize: number, satPerKvB: bigint): bigint {
  return (BigInt(vsize) * satPerKvB + 999n) / 1000n;
}

/** Core's dust threshold of an output script: below it the node refuses the output ("dust"). */
export function dustThreshold(script: Uint8Array): bigint {
  const witness =
    script.length >= 4 &&
    script.length <= 42 &&
    (script[0] === 0 || (script[0] ?? 0) >= 0x51) &&
    script[1] === script.length - 2;
  const spend = witness ? 32 + 4 + 1 + Math.floor(107 / 4) + 4 : 32 + 4 + 1 + 107 + 4;
  return (DUST_RELAY_SAT_PER_KVB * BigInt(8 + 1 + script.length + spend)) / 1000n;
}

export interface BuiltTransaction {
  psbt: string;
  /** The txid of the unsigned transaction: with segwit inputs, the signed one has the same. */
  txid: string;
  outputs: { script: Uint8Array; amount: bigint }[];
}

/**
 * A version 2 transaction spending `inputs` (P2WPKH, each with its witnessUtxo in the PSBT) to `outputs`, with
 * every input signalling replaceability (nSequence 0xfffffffd, BIP125) so a stuck one can be bumped by hand.
 */
export function buildPsbt(
  inputs: Utxo[],
  outputs: { script: Uint8Array; amount: bigint }[],
): BuiltTransaction {
  const tx = new Transaction({ version: 2 });
  for (const input of inputs) {
    tx.addInput({
      txid: input.txid,
      index: input.vout,
      sequence: 0xfffffffd,
      witnessUtxo: { script: hex.decode(input.script), amount: input.amount },
    });
  }
  for (const output of outputs) tx.addOutput({ script: output.script, amount: output.amount });
  return { psbt: base64.encode(tx.toPSBT()), txid: tx.id, outputs };
}

/**
 * Checks that a signed transaction is the one we built: the same txid (it commits to every input and output)
 * and only P2WPKH witnesses. Returns the raw hex to broadcast.
 */
export function checkSigned(built: BuiltTransaction, signed: { hex: string; txid: string }): string {
  const tx = Transaction.fromRaw(hex.decode(signed.hex), { allowUnknownOutputs: true });
  if (tx.id !== built.txid || signed.txid !== built.txid) {
    throw new Error(`the signer returned another transaction (${tx.id}, expected ${built.txid})`);
  }
  return signed.hex;
}
