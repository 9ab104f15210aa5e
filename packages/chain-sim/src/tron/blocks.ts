import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { addressOfPublicKey, bytesToHex, hexToBytes } from './codec.ts';
import { BLOCK_VERSION } from './params.ts';
import { ProtoWriter } from './protobuf.ts';
import type { BlockRow, TxRow } from './store.ts';

/**
 * Blocks as java-tron forms them: the header's raw data in protobuf (BlockHeader.raw), the block id made of the
 * block number (8 bytes, big-endian) followed by the last 24 bytes of sha256 of that raw header, and a witness
 * signature over sha256 of it. The simulator is the only witness, with its own key.
 */

/** The signed Transaction's protobuf bytes (raw_data and signatures), whose sha256 goes into the trie root. */
export function signedTransactionBytes(tx: Pick<TxRow, 'rawDataHex' | 'signature'>): Uint8Array {
  const w = new ProtoWriter().message(1, hexToBytes(tx.rawDataHex));
  for (const signature of tx.signature) w.message(2, hexToBytes(signature), true);
  return w.finish();
}

/** A binary Merkle root of the transactions' hashes (the last one paired with itself); zeros when empty. */
export function txTrieRoot(txs: Pick<TxRow, 'rawDataHex' | 'signature'>[]): string {
  let level: Uint8Array[] = txs.map((tx) => sha256(signedTransactionBytes(tx)));
  if (level.length === 0) return '0'.repeat(64);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array;
      const right = level[i + 1] ?? left;
      next.push(sha256(Uint8Array.from([...left, ...right])));
    }
    level = next;
  }
  return bytesToHex(level[0] as Uint8Array);
}

/** Forms and signs the block after `parent` (null for the genesis block). */
export function forgeBlock(
  witnessKey: Uint8Array,
  parent: BlockRow | null,
  timestamp: number,
  trieRoot: string,
): BlockRow {
  const number = parent ? parent.number + 1 : 0;
  const parentHash = parent ? parent.blockId : '0'.repeat(64);
  const witnessAddress = addressOfPublicKey(secp256k1.getPublicKey(witnessKey, false));
  const raw = new ProtoWriter()
    .varint(1, timestamp)
    .bytes(2, hexToBytes(trieRoot))
    .bytes(3, hexToBytes(parentHash))
    .varint(7, number)
    .bytes(9, hexToBytes(witnessAddress))
    .varint(10, BLOCK_VERSION)
    .finish();
  const hash = sha256(raw);
  const blockId = number.toString(16).padStart(16, '0') + bytesToHex(hash.subarray(8));
  const signature = secp256k1.sign(hash, witnessKey, { prehash: false, format: 'recovered' });
  const rsv = Uint8Array.from([...signature.subarray(1), signature[0] ?? 0]);
  return {
    number,
    blockId,
    parentHash,
    timestamp,
    txTrieRoot: trieRoot,
    witnessAddress,
    witnessSignature: bytesToHex(rsv),
  };
}
