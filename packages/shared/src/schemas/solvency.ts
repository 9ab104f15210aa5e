import { z } from 'zod';

/**
 * Proof of solvency (issue #26): the console's report of on-chain holdings against what customers are owed
 * (`/api/v2/admin/solvency`, permission `ledger.read`), and the Merkle proof of liabilities each customer can check
 * their own balances against (`/api/v2/peatio/account/solvency/proof`). Amounts are decimal strings, times ISO 8601
 * UTC.
 */

/** Error codes of the solvency routes. */
export const SOLVENCY_ERRORS = {
  /** No Merkle snapshot has been published yet, or not the one asked for (404). */
  snapshotNotFound: 'solvency.snapshot.not_found',
  /** The published snapshot has no leaf for this account: it had no balance row when the snapshot was made (404). */
  notInSnapshot: 'solvency.proof.not_in_snapshot',
  /** `snapshot_id` is not a positive whole number (422). */
  invalidSnapshot: 'solvency.snapshot.invalid_id',
} as const;

/** `GET /account/solvency/proof`: the newest snapshot unless `snapshot_id` names an older one. */
export const solvencyProofQuery = z.object({
  snapshot_id: z.coerce
    .number({ error: SOLVENCY_ERRORS.invalidSnapshot })
    .int(SOLVENCY_ERRORS.invalidSnapshot)
    .positive(SOLVENCY_ERRORS.invalidSnapshot)
    .max(Number.MAX_SAFE_INTEGER, SOLVENCY_ERRORS.invalidSnapshot)
    .optional(),
});

/** Where our coins sit on a network: users' deposit addresses, the hot wallet, the cold (watch-only) address. */
export const SOLVENCY_TIERS = ['deposit', 'hot', 'cold'] as const;
export type SolvencyTier = (typeof SOLVENCY_TIERS)[number];
