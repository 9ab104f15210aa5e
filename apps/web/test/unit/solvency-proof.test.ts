import type { SolvencyProofEntity } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { checkProof, leafText, reachesRoot } from '../../src/features/wallet/solvency-proof.ts';

/**
 * Vectors made by the server's implementation (apps/server/src/modules/custody/merkle.ts) over three accounts
 * with one salt: the browser's independent implementation must agree with it byte for byte.
 */
const SALT = 'a1'.repeat(32);
const ROOT = 'd6add737933df8a4ee0509ed84fdc30a14fd1a4d8f1d98eb94e9634fa5eb7531';
const A = {
  leaf: '2928e73465f7350176387538c45ead4aed18eed25cbc2a7f338b4f4dfa1f5f09',
  path: [
    { side: 'right', hash: '4dce1dca794507a07da6cb8723d2d8c0835c9b4038b0fe9d364d5f62b314261b' },
    { side: 'right', hash: '63b6de936f97d45b52bb9c55095eb28abd5cf9dd0e0941e6ae1fbe8be16c9005' },
  ],
} as const;
/** The last leaf of an odd level goes up unpaired: its path has one step fewer. */
const B = {
  leaf: '63b6de936f97d45b52bb9c55095eb28abd5cf9dd0e0941e6ae1fbe8be16c9005',
  path: [{ side: 'left', hash: '9c2d4245865cac25d2187e3ca655987408c856fcce208457e9646c16989b52f2' }],
} as const;

const proofOf = (balances: Record<string, string>): SolvencyProofEntity => ({
  snapshot_id: 1,
  created_at: '2025-01-01T00:00:00.000Z',
  root: ROOT,
  leaf_count: 3,
  uid: 'ID00000000A1',
  salt: SALT,
  balances,
  leaf_data: leafText('ID00000000A1', SALT, balances),
  leaf: A.leaf,
  path: [...A.path],
});

describe('checking a proof of liabilities in the browser', () => {
  it('encodes the leaf as the server does', () => {
    expect(leafText('ID00000000A1', SALT, { usdt: '1000.5', eth: '0', btc: '2' })).toBe(
      `v1|ID00000000A1|${SALT}|btc:2,usdt:1000.5`,
    );
    expect(leafText('ID00000000C3', SALT, {})).toBe(`v1|ID00000000C3|${SALT}|`);
  });

  it("verifies the server's proofs, paired and unpaired", async () => {
    expect(await checkProof(proofOf({ btc: '2', usdt: '1000.5' }))).toEqual({ leaf: true, root: true });
    expect(await reachesRoot(B.leaf, [...B.path], ROOT)).toBe(true);
  });

  it('refuses other balances, another salt or a tampered path', async () => {
    expect((await checkProof(proofOf({ btc: '2.1', usdt: '1000.5' }))).leaf).toBe(false);
    expect((await checkProof({ ...proofOf({ btc: '2', usdt: '1000.5' }), salt: 'b2'.repeat(32) })).leaf).toBe(
      false,
    );
    expect(await reachesRoot(A.leaf, [{ ...A.path[0], side: 'left' }, A.path[1]], ROOT)).toBe(false);
    expect(await reachesRoot(A.leaf, [A.path[0]], ROOT)).toBe(false);
  });
});
