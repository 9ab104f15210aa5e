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

/** Holdings of one currency on one network, per tier, and their sum. */
export interface SolvencyNetworkEntity {
  network: string;
  deposit: string;
  hot: string;
  cold: string;
  total: string;
  /** Why this network's chain could not be read (its amounts are then 0 and the currency is not checked). */
  error: string | null;
}

/**
 * What customers are owed in one currency, from the ledger: users' available balances, their amounts locked in
 * open orders, their amounts held for withdrawals not yet settled, and card top-ups still on their way (refundable
 * to the spot balance). `total` is their sum. The exchange's own accounts (fees, swap liquidity, the net external
 * flow) are not liabilities.
 */
export interface SolvencyLiabilitiesEntity {
  available: string;
  orders: string;
  withdrawals: string;
  card: string;
  total: string;
}

/** One currency of the solvency report. */
export interface SolvencyCurrencyEntity {
  currency: string;
  type: 'coin' | 'fiat';
  /** Σ of every tier on every network carrying it; null when it is not held on a chain (fiat) or no network is read. */
  on_chain: string | null;
  /** The same, per tier (null with `on_chain`). */
  by_tier: Record<SolvencyTier, string> | null;
  by_network: SolvencyNetworkEntity[];
  liabilities: SolvencyLiabilitiesEntity;
  /** `on_chain − liabilities.total` (negative when insolvent); null with `on_chain`. */
  surplus: string | null;
  /** `on_chain ≥ liabilities.total`; null when not checked on chain. */
  solvent: boolean | null;
  /** Why a currency is not checked on chain, or null. */
  note: string | null;
}

/** A published Merkle root of liabilities. */
export interface SolvencySnapshotEntity {
  id: number;
  /** Hex SHA-256 root of the tree. */
  root: string;
  leaf_count: number;
  /** Σ of the leaves per currency (what customers were owed at `created_at`). */
  totals: Record<string, string>;
  created_at: string;
}

/** `GET /admin/solvency`: the report per currency, when it was read, and the newest published snapshot. */
export interface SolvencyReportEntity {
  currencies: SolvencyCurrencyEntity[];
  at: string;
  snapshot: SolvencySnapshotEntity | null;
}

/** One step of a Merkle path: the sibling's hash and on which side of the running hash it goes. */
export interface MerklePathStep {
  side: 'left' | 'right';
  hash: string;
}

/**
 * `GET /account/solvency/proof`: everything a customer needs to recompute their leaf and check it reaches the
 * published root (see `modules/custody/merkle.ts` on the server for the exact encoding):
 * `leaf = SHA-256(0x00 ‖ UTF-8(leaf_data))`, `leaf_data = "v1|" uid "|" salt "|" balances`, each path step
 * `SHA-256(0x01 ‖ left ‖ right)` over the raw 32-byte hashes.
 */
export interface SolvencyProofEntity {
  snapshot_id: number;
  created_at: string;
  root: string;
  leaf_count: number;
  uid: string;
  /** Hex salt of this account in this snapshot (HMAC under a server key: unguessable without it). */
  salt: string;
  /** What the account was owed per currency at `created_at` (zero amounts left out). */
  balances: Record<string, string>;
  /** The exact text hashed into the leaf. */
  leaf_data: string;
  leaf: string;
  path: MerklePathStep[];
}
