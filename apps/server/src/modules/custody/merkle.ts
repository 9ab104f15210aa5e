import { createHash, createHmac, hkdfSync } from 'node:crypto';
import type { MerklePathStep } from '@exchange/shared';

/**
 * The Merkle tree of the proof of liabilities, as exchanges publish it (one leaf per customer account, the root
 * published, each customer given their leaf's data and the path to the root). Everything here is pure and
 * deterministic so that a customer can re-implement it from this description:
 *
 * - Leaf data (UTF-8 text): `v1|<uid>|<salt>|<balances>` where
 *   - `uid` is the account's public id (`ID` + 10 hex digits);
 *   - `salt` is 64 lowercase hex digits, different per account and per snapshot (see {@link snapshotSalt});
 *   - `balances` lists what the account was owed, `<currency>:<amount>` joined by `,`, currencies in ascending
 *     byte order of their ids, amounts in plain decimal (no sign, exponent or trailing zeros: `1.5`, `20`,
 *     `0.00000001`), zero amounts left out (an account owed nothing has an empty list).
 * - Leaf hash: `SHA-256(0x00 ‖ leaf data)`. Inner node: `SHA-256(0x01 ‖ left ‖ right)` over the two raw 32-byte
 *   hashes. The distinct prefixes keep a leaf from being passed off as an inner node (RFC 6962's rule).
 * - Leaves are ordered by their hash (ascending bytes), which reveals nothing of who signed up when. Pairs are
 *   hashed level by level; a level's last node without a partner goes up unchanged (it is never paired with a
 *   copy of itself, the ambiguity CVE-2012-2459 came from). The tree of no leaves has root `SHA-256("")`.
 * - A path lists, from the leaf up, each sibling's hash with the side it sits on; levels where the node had no
 *   partner have no step.
 *
 * Hashes travel as lowercase hex.
 */

/** Version tag at the start of every leaf's data; a change of the encoding changes it. */
export const LEAF_VERSION = 'v1';
const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);
const HEX64 = /^[0-9a-f]{64}$/;
const AMOUNT = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** The canonical text of an account's balances (see the module comment); throws on a non-canonical amount. */
export function encodeBalances(balances: Readonly<Record<string, string>>): string {
  const parts: string[] = [];
  for (const currency of Object.keys(balances).sort(byteOrder)) {
    const amount = balances[currency] as string;
    if (!AMOUNT.test(amount)) throw new Error(`not a canonical amount: ${currency} ${amount}`);
    if (amount !== '0') parts.push(`${currency}:${amount}`);
  }
  return parts.join(',');
}

/** The exact text hashed into an account's leaf. */
export function leafData(uid: string, salt: string, balances: Readonly<Record<string, string>>): string {
  return `${LEAF_VERSION}|${uid}|${salt}|${encodeBalances(balances)}`;
}

/** `SHA-256(0x00 ‖ UTF-8(data))`, hex. */
export function leafHash(data: string): string {
  return createHash('sha256').update(LEAF_PREFIX).update(data, 'utf8').digest('hex');
}

/** `SHA-256(0x01 ‖ left ‖ right)` over the raw hashes, hex. */
export function nodeHash(left: string, right: string): string {
  return createHash('sha256')
    .update(NODE_PREFIX)
    .update(Buffer.from(left, 'hex'))
    .update(Buffer.from(right, 'hex'))
    .digest('hex');
}

/** The root of the tree of no leaves. */
export const EMPTY_ROOT = createHash('sha256').digest('hex');

/**
 * Every level of the tree over `leaves` (already in their order), from the leaves (level 0) up to the root (the
 * last level, one node). No leaves give one level holding {@link EMPTY_ROOT}.
 */
export function buildLevels(leaves: readonly string[]): string[][] {
  if (leaves.length === 0) return [[EMPTY_ROOT]];
  const levels: string[][] = [[...leaves]];
  let level = levels[0] as string[];
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as string;
      const right = level[i + 1];
      next.push(right === undefined ? left : nodeHash(left, right));
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** Sizes of the levels of a tree of `leafCount` leaves, from the leaves up. */
export function levelSizes(leafCount: number): number[] {
  if (leafCount === 0) return [1];
  const sizes = [leafCount];
  let size = leafCount;
  while (size > 1) {
    size = Math.ceil(size / 2);
    sizes.push(size);
  }
  return sizes;
}

/** Where the siblings of leaf `index` sit (level, position) and on which side, from the leaf up. */
export function siblingsOf(
  leafCount: number,
  index: number,
): { level: number; position: number; side: MerklePathStep['side'] }[] {
  if (!Number.isInteger(index) || index < 0 || index >= leafCount) throw new Error('leaf index out of range');
  const sizes = levelSizes(leafCount);
  const out: { level: number; position: number; side: MerklePathStep['side'] }[] = [];
  let position = index;
  for (let level = 0; level < sizes.length - 1; level++) {
    const sibling = position ^ 1;
    if (sibling < (sizes[level] as number))
      out.push({ level, position: sibling, side: sibling < position ? 'left' : 'right' });
    position >>= 1;
  }
  return out;
}

/** The path of leaf `index` in a tree built by {@link buildLevels}. */
export function pathFor(levels: readonly string[][], index: number): MerklePathStep[] {
  const leafCount = levels[0]?.length ?? 0;
  return siblingsOf(leafCount, index).map((s) => ({
    side: s.side,
    hash: (levels[s.level] as string[])[s.position] as string,
  }));
}

/**
 * True when hashing `leaf` with each step of `path` in turn gives `root`: what a customer runs (or re-implements)
 * to check that their account is in the published tree. Pure; refuses malformed input rather than throwing.
 */
export function verifyProof(leaf: string, path: readonly MerklePathStep[], root: string): boolean {
  if (!HEX64.test(leaf) || !HEX64.test(root)) return false;
  let hash = leaf;
  for (const step of path) {
    if (!HEX64.test(step.hash)) return false;
    if (step.side === 'left') hash = nodeHash(step.hash, hash);
    else if (step.side === 'right') hash = nodeHash(hash, step.hash);
    else return false;
  }
  return hash === root;
}

/**
 * The key the salts are made with: HKDF-SHA-256 of the server's encryption key under its own label, so it is
 * never the encryption key itself and changes with SECRET_KEY like every server key.
 */
export function solvencySaltKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', encryptionKey, 'exchange', 'solvency-leaf-salt', 32));
}

/**
 * An account's salt in one snapshot: `HMAC-SHA-256(key, "solvency-salt|<snapshot id>|<uid>")`, hex. Without the
 * server's key nobody can rebuild a leaf from a guessed uid and balances, so the published tree leaks nothing;
 * the account's owner gets their salt with their proof. A new snapshot gives every account a new salt, so leaves
 * cannot be followed from one snapshot to the next.
 */
export function snapshotSalt(key: Buffer, snapshotId: number, uid: string): string {
  return createHmac('sha256', key).update(`solvency-salt|${snapshotId}|${uid}`).digest('hex');
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
