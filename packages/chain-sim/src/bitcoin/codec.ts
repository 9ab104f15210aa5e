import { sha256 } from '@noble/hashes/sha2.js';
import { bech32m, hex } from '@scure/base';
import { Address, OutScript, RawTx, Script, utils } from '@scure/btc-signer';

/**
 * Bitcoin wire formats as the simulator needs them: transactions (BIP141 serialisation, txid and wtxid), block
 * headers (80 bytes, hash = double SHA-256), merkle roots, and scripts described the way Bitcoin Core's RPC
 * describes them (`scriptPubKey` objects with `asm`, `hex`, `address`, `type`).
 */

/** Regtest's address parameters (bech32 HRP `bcrt`, Base58 versions as testnet). */
export const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef } as const;

/** Satoshis per bitcoin. */
export const COIN = 100_000_000n;

/** A hash as RPC shows it: the bytes reversed, in hex (txids and block hashes are little-endian on the wire). */
export function displayHash(bytes: Uint8Array): string {
  return hex.encode(Uint8Array.from(bytes).reverse());
}

/** The wire bytes of a hash shown as hex by RPC. */
export function wireHash(display: string): Uint8Array {
  return hex.decode(display).reverse();
}

export const dsha256 = (bytes: Uint8Array): Uint8Array => sha256(sha256(bytes));

export interface DecodedInput {
  /** The spent transaction, as RPC shows it. */
  txid: string;
  vout: number;
  scriptSig: Uint8Array;
  sequence: number;
  witness: Uint8Array[];
}

export interface DecodedOutput {
  value: bigint;
  script: Uint8Array;
}

export interface DecodedTx {
  txid: string;
  wtxid: string;
  version: number;
  lockTime: number;
  inputs: DecodedInput[];
  outputs: DecodedOutput[];
  raw: Uint8Array;
  size: number;
  vsize: number;
  weight: number;
}

/** Parses a serialised transaction (with or without witness); throws on anything that is not one. */
export function decodeTx(raw: Uint8Array): DecodedTx {
  const parsed = RawTx.decode(raw);
  const stripped = RawTx.encode({ ...parsed, segwitFlag: false, witnesses: undefined });
  const witnesses = parsed.witnesses ?? [];
  const weight = stripped.length * 3 + raw.length;
  return {
    txid: displayHash(dsha256(stripped)),
    wtxid: displayHash(dsha256(raw)),
    version: parsed.version,
    lockTime: parsed.lockTime,
    inputs: parsed.inputs.map((input, i) => ({
      // RawTx's txid coder is little-endian: it already gives (and takes) the order RPC shows.
      txid: hex.encode(input.txid),
      vout: input.index,
      scriptSig: input.finalScriptSig,
      sequence: input.sequence,
      witness: witnesses[i] ?? [],
    })),
    outputs: parsed.outputs.map((output) => ({ value: output.amount, script: output.script })),
    raw,
    size: raw.length,
    vsize: Math.ceil(weight / 4),
    weight,
  };
}

/** Serialises a transaction; with a witness section when any input has one (BIP144). */
export function encodeTx(tx: {
  version: number;
  lockTime: number;
  inputs: { txid: string; vout: number; scriptSig: Uint8Array; sequence: number; witness?: Uint8Array[] }[];
  outputs: DecodedOutput[];
}): Uint8Array {
  const segwit = tx.inputs.some((input) => (input.witness?.length ?? 0) > 0);
  return RawTx.encode({
    version: tx.version,
    segwitFlag: segwit,
    inputs: tx.inputs.map((input) => ({
      txid: hex.decode(input.txid),
      index: input.vout,
      finalScriptSig: input.scriptSig,
      sequence: input.sequence,
    })),
    outputs: tx.outputs.map((output) => ({ amount: output.value, script: output.script })),
    witnesses: segwit ? tx.inputs.map((input) => input.witness ?? []) : undefined,
    lockTime: tx.lockTime,
  });
}

/** The merkle root of txids (display order), duplicating the last hash of an odd level, as Bitcoin does. */
export function merkleRoot(txids: string[]): Uint8Array {
  let level = txids.map(wireHash);
  if (level.length === 0) return new Uint8Array(32);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array;
      const right = level[i + 1] ?? left;
      next.push(dsha256(utils.concatBytes(left, right)));
    }
    level = next;
  }
  return level[0] as Uint8Array;
}

/** Regtest's proof-of-work limit in compact form: any hash meets it, so no work is done. */
export const REGTEST_BITS = 0x207fffff;
/** Version with the BIP9 top bits set, as current miners produce. */
export const BLOCK_VERSION = 0x20000000;

/** The 80-byte header and its hash. */
export function blockHeader(fields: {
  prevHash: string;
  merkleRoot: Uint8Array;
  time: number;
  nonce: number;
}): { header: Uint8Array; hash: string } {
  const header = new Uint8Array(80);
  const view = new DataView(header.buffer);
  view.setUint32(0, BLOCK_VERSION, true);
  header.set(wireHash(fields.prevHash), 4);
  header.set(fields.merkleRoot, 36);
  view.setUint32(68, fields.time, true);
  view.setUint32(72, REGTEST_BITS, true);
  view.setUint32(76, fields.nonce, true);
  return { header, hash: displayHash(dsha256(header)) };
}

/** Bitcoin's variable-length integer (CompactSize). */
export function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  const out = new Uint8Array(5);
  out[0] = 0xfe;
  new DataView(out.buffer).setUint32(1, n, true);
  return out;
}

/** Core's names for output script types (`scriptPubKey.type`). */
const CORE_TYPES: Record<string, string> = {
  wpkh: 'witness_v0_keyhash',
  wsh: 'witness_v0_scripthash',
  pkh: 'pubkeyhash',
  sh: 'scripthash',
  tr: 'witness_v1_taproot',
  pk: 'pubkey',
  ms: 'multisig',
};

/** A script's type in Core's words, and its address when it has one. */
export function classifyScript(script: Uint8Array): { type: string; address: string | null } {
  if (script[0] === 0x6a) return { type: 'nulldata', address: null };
  // Any 32-byte witness v1 program is Taproot to Core, whether or not it is a valid point.
  if (script.length === 34 && script[0] === 0x51 && script[1] === 0x20) {
    const words = [1, ...bech32m.toWords(script.subarray(2))];
    return { type: 'witness_v1_taproot', address: bech32m.encode(REGTEST.bech32, words) };
  }
  try {
    const decoded = OutScript.decode(script);
    const type = CORE_TYPES[decoded.type] ?? 'nonstandard';
    let address: string | null = null;
    if (['wpkh', 'wsh', 'pkh', 'sh', 'tr'].includes(decoded.type)) {
      address = Address(REGTEST).encode(decoded);
    }
    return { type, address };
  } catch {
    return { type: 'nonstandard', address: null };
  }
}

/** Core's `asm` of a script: opcodes by name, pushes in hex, small numbers as digits. */
export function scriptAsm(script: Uint8Array): string {
  try {
    return Script.decode(script)
      .map((op) => {
        if (op instanceof Uint8Array) return op.length === 0 ? '0' : hex.encode(op);
        if (typeof op === 'number') return String(op);
        return op === 'OP_0' ? '0' : `OP_${op}`;
      })
      .join(' ');
  } catch {
    return '[error]';
  }
}

/** The `scriptPubKey` object of Core's transaction JSON (no `desc`: the simulator does not compute descriptors). */
export function scriptPubKeyJson(script: Uint8Array): Record<string, unknown> {
  const { type, address } = classifyScript(script);
  return { asm: scriptAsm(script), hex: hex.encode(script), ...(address ? { address } : {}), type };
}

/** An amount in BTC written as Core writes it: a JSON number with exactly 8 decimals. */
export class BtcAmount {
  constructor(readonly sats: bigint) {}
  toJSON(): string {
    return `${AMOUNT_MARK}${formatBtc(this.sats)}${AMOUNT_MARK}`;
  }
}

const AMOUNT_MARK = '~btc~';

/** `sats` as a decimal BTC string with 8 decimals. */
export function formatBtc(sats: bigint): string {
  const negative = sats < 0n;
  const abs = negative ? -sats : sats;
  return `${negative ? '-' : ''}${abs / COIN}.${(abs % COIN).toString().padStart(8, '0')}`;
}

/** JSON with every {@link BtcAmount} as a bare number literal (`0.10000000`), as Core's UniValue prints it. */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.replace(new RegExp(`"${AMOUNT_MARK}(-?\\d+\\.\\d{8})${AMOUNT_MARK}"`, 'g'), '$1');
}

/** Exact BTC → satoshis for an amount given as a JSON number's text (at most 8 decimals). */
export function parseBtc(text: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) return null;
  return BigInt(match[1] ?? '0') * COIN + BigInt((match[2] ?? '').padEnd(8, '0'));
}
