import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildLevels,
  EMPTY_ROOT,
  encodeBalances,
  leafData,
  leafHash,
  levelSizes,
  nodeHash,
  pathFor,
  snapshotSalt,
  solvencySaltKey,
  verifyProof,
} from '../../src/modules/custody/merkle.ts';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest('hex');
const leaves = (n: number) => Array.from({ length: n }, (_, i) => leafHash(`leaf ${i}`));

describe('the Merkle tree of liabilities', () => {
  it('encodes balances canonically: byte order, zero amounts left out, no trailing zeros', () => {
    expect(encodeBalances({ usdt: '20', btc: '1.5', eth: '0', b2: '0.00000001' })).toBe(
      'b2:0.00000001,btc:1.5,usdt:20',
    );
    expect(encodeBalances({})).toBe('');
    for (const amount of ['1.50', '01', '-1', '1e3', '1.', ' 1'])
      expect(() => encodeBalances({ btc: amount }), amount).toThrow();
    expect(leafData('ID0123456789', 'ab'.repeat(32), { btc: '1.5' })).toBe(
      `v1|ID0123456789|${'ab'.repeat(32)}|btc:1.5`,
    );
  });

  it('hashes leaves and nodes with distinct prefixes (0x00, 0x01), as documented', () => {
    expect(leafHash('v1|x')).toBe(sha(Buffer.from([0]), Buffer.from('v1|x')));
    const [a, b] = leaves(2) as [string, string];
    expect(nodeHash(a, b)).toBe(sha(Buffer.from([1]), Buffer.from(a, 'hex'), Buffer.from(b, 'hex')));
    expect(EMPTY_ROOT).toBe(sha());
  });

  it('carries an unpaired node up unchanged rather than pairing it with itself', () => {
    const [a, b, c] = leaves(3) as [string, string, string];
    const levels = buildLevels([a, b, c]);
    expect(levels).toEqual([[a, b, c], [nodeHash(a, b), c], [nodeHash(nodeHash(a, b), c)]]);
    expect(levelSizes(3)).toEqual([3, 2, 1]);
    expect(levelSizes(1)).toEqual([1]);
    expect(buildLevels([])).toEqual([[EMPTY_ROOT]]);
  });

  it('gives every leaf of trees of every size up to 33 a path that verifies against the root', () => {
    for (let n = 1; n <= 33; n++) {
      const hashes = leaves(n);
      const levels = buildLevels(hashes);
      const root = (levels.at(-1) as string[])[0] as string;
      expect(levels.map((l) => l.length)).toEqual(levelSizes(n));
      hashes.forEach((leaf, i) => {
        const path = pathFor(levels, i);
        expect(verifyProof(leaf, path, root), `${n}:${i}`).toBe(true);
        // Another leaf with this path, or this leaf with a sibling flipped, does not reach the root.
        expect(verifyProof(leafHash('someone else'), path, root)).toBe(false);
        if (path.length > 0) {
          const [first, ...rest] = path;
          const flipped = { side: first?.side === 'left' ? 'right' : 'left', hash: first?.hash } as const;
          expect(verifyProof(leaf, [flipped as (typeof path)[number], ...rest], root)).toBe(false);
        }
      });
    }
  });

  it('refuses malformed input instead of throwing', () => {
    const [a, b] = leaves(2) as [string, string];
    const root = nodeHash(a, b);
    expect(verifyProof(a, [{ side: 'right', hash: b }], root)).toBe(true);
    expect(verifyProof(a.toUpperCase(), [{ side: 'right', hash: b }], root)).toBe(false);
    expect(verifyProof(a, [{ side: 'right', hash: 'zz' }], root)).toBe(false);
    expect(verifyProof(a, [{ side: 'up' as 'left', hash: b }], root)).toBe(false);
    expect(verifyProof(a, [], root)).toBe(false);
  });

  it('salts per account and per snapshot under a key derived from the server key', () => {
    const key = solvencySaltKey(Buffer.alloc(32, 7));
    expect(key.equals(Buffer.alloc(32, 7))).toBe(false);
    const salt = snapshotSalt(key, 1, 'ID0000000001');
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    expect(snapshotSalt(key, 1, 'ID0000000001')).toBe(salt);
    expect(snapshotSalt(key, 2, 'ID0000000001')).not.toBe(salt);
    expect(snapshotSalt(key, 1, 'ID0000000002')).not.toBe(salt);
    expect(snapshotSalt(solvencySaltKey(Buffer.alloc(32, 8)), 1, 'ID0000000001')).not.toBe(salt);
  });
});
