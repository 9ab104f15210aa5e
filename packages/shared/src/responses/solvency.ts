import { z } from 'zod';
import { decimal, isoTime } from './common.ts';

/**
 * What the exchange holds and owes: the console's custody view (hot wallets, alerts, transfers, refusals), the
 * solvency report and its Merkle snapshots, and the customer's own proof of liabilities.
 */

/** Where a hot wallet's balance stands against its bounds. */
export type CustodyHotState = 'ok' | 'low' | 'above_max' | 'unknown';

/** One currency of a hot wallet. */
export const custodyBalanceResponse = z.object({
  currency: z.string(),
  precision: z.number().int(),
  /** Read from the chain now; null when it could not be read (`error` says why). */
  balance: decimal.nullable(),
  error: z.string().nullable(),
  hot_min: decimal.nullable(),
  hot_max: decimal.nullable(),
  state: z.enum(['ok', 'low', 'above_max', 'unknown']),
  /** What brings the hot wallet back to its minimum (`low`), else null. */
  refill: decimal.nullable(),
  /** What goes to the cold address (`above_max`), else null. */
  excess: decimal.nullable(),
});
export type CustodyBalanceEntity = z.infer<typeof custodyBalanceResponse>;

/** One network's hot wallet. */
export const custodyNetworkResponse = z.object({
  blockchain_key: z.string(),
  /** The hot wallet's address (account 1, index 0 of the signer's published key); null with `error`. */
  hot_address: z.string().nullable(),
  /** Why the hot wallet's address is unknown (the signer has not published its keys), else null. */
  error: z.string().nullable(),
  /** The watch-only cold address the signer is configured with, or null when none is. */
  cold_address: z.string().nullable(),
  currencies: z.array(custodyBalanceResponse),
});
export type CustodyNetworkEntity = z.infer<typeof custodyNetworkResponse>;

/** An open chain alert. */
export const custodyAlertResponse = z.object({
  id: z.number().int(),
  network: z.string(),
  kind: z.string(),
  detail: z.record(z.string(), z.unknown()),
  created_at: isoTime,
});
export type CustodyAlertEntity = z.infer<typeof custodyAlertResponse>;

/** A sweep, gas top-up or hot → cold transfer. */
export const custodyTransferResponse = z.object({
  id: z.number().int(),
  network: z.string(),
  kind: z.enum(['sweep', 'gas', 'cold']),
  currency: z.string(),
  from_addresses: z.array(z.string()),
  to_address: z.string(),
  amount: decimal,
  txid: z.string(),
  state: z.enum(['pending', 'confirmed', 'failed']),
  /** The block explorer's page of the transaction, when the network has an explorer. */
  explorer_link: z.string().nullable(),
  created_at: isoTime,
});
export type CustodyTransferEntity = z.infer<typeof custodyTransferResponse>;

/** A signing request the signer refused. */
export const custodyRefusalResponse = z.object({
  id: z.number().int(),
  network: z.string(),
  purpose: z.string(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  currency: z.string().nullable(),
  amount: decimal.nullable(),
  destination: z.string().nullable(),
  created_at: isoTime,
});
export type CustodyRefusalEntity = z.infer<typeof custodyRefusalResponse>;

/** `GET /admin/custody`. */
export const custodyViewResponse = z.object({
  at: isoTime,
  networks: z.array(custodyNetworkResponse),
  alerts: z.array(custodyAlertResponse),
  /** The latest 100, newest first. */
  transfers: z.array(custodyTransferResponse),
  /** The latest 50, newest first. */
  refusals: z.array(custodyRefusalResponse),
});
export type CustodyViewEntity = z.infer<typeof custodyViewResponse>;

/** The hot wallet bounds of a currency on a network. */
export const custodyLimitsResponse = z.object({
  blockchain_key: z.string(),
  currency: z.string(),
  hot_min: decimal.nullable(),
  hot_max: decimal.nullable(),
});
export type CustodyLimitsEntity = z.infer<typeof custodyLimitsResponse>;

/** What one network holds of a currency, per tier. */
export const solvencyNetworkResponse = z.object({
  network: z.string(),
  deposit: decimal,
  hot: decimal,
  cold: decimal,
  total: decimal,
  /** Why this network's chain could not be read (its amounts are then 0 and the currency is not checked). */
  error: z.string().nullable(),
});
export type SolvencyNetworkEntity = z.infer<typeof solvencyNetworkResponse>;

/** What customers are owed of a currency. */
export const solvencyLiabilitiesResponse = z.object({
  available: decimal,
  orders: decimal,
  withdrawals: decimal,
  card: decimal,
  total: decimal,
});
export type SolvencyLiabilitiesEntity = z.infer<typeof solvencyLiabilitiesResponse>;

/** One currency of the solvency report. */
export const solvencyCurrencyResponse = z.object({
  currency: z.string(),
  type: z.enum(['coin', 'fiat']),
  /** Σ of every tier on every network carrying it; null when it is not held on a chain (fiat) or no network is read. */
  on_chain: decimal.nullable(),
  /** The same, per tier (null with `on_chain`). */
  by_tier: z.object({ deposit: decimal, hot: decimal, cold: decimal }).nullable(),
  by_network: z.array(solvencyNetworkResponse),
  liabilities: solvencyLiabilitiesResponse,
  /** `on_chain − liabilities.total` (negative when insolvent); null with `on_chain`. */
  surplus: decimal.nullable(),
  /** `on_chain ≥ liabilities.total`; null when not checked on chain. */
  solvent: z.boolean().nullable(),
  /** Why a currency is not checked on chain, or null. */
  note: z.string().nullable(),
});
export type SolvencyCurrencyEntity = z.infer<typeof solvencyCurrencyResponse>;

/** A published Merkle snapshot of customer liabilities. */
export const solvencySnapshotResponse = z
  .object({
    id: z.number().int(),
    /** Hex SHA-256 root of the tree. */
    root: z.string(),
    leaf_count: z.number().int(),
    /** Σ of the leaves per currency (what customers were owed at `created_at`). */
    totals: z.record(z.string(), decimal),
    created_at: isoTime,
  })
  .meta({ id: 'SolvencySnapshot' });
export type SolvencySnapshotEntity = z.infer<typeof solvencySnapshotResponse>;

/** `GET /admin/solvency`. */
export const solvencyReportResponse = z.object({
  currencies: z.array(solvencyCurrencyResponse),
  at: isoTime,
  snapshot: solvencySnapshotResponse.nullable(),
});
export type SolvencyReportEntity = z.infer<typeof solvencyReportResponse>;

/** A step of a Merkle path. */
export const merklePathStepResponse = z.object({ side: z.enum(['left', 'right']), hash: z.string() });
export type MerklePathStep = z.infer<typeof merklePathStepResponse>;

/** `GET /account/solvency/proof`: the customer's own proof of liabilities. */
export const solvencyProofResponse = z.object({
  snapshot_id: z.number().int(),
  created_at: isoTime,
  root: z.string(),
  leaf_count: z.number().int(),
  uid: z.string(),
  /** Hex salt of this account in this snapshot (HMAC under a server key: unguessable without it). */
  salt: z.string(),
  /** What the account was owed per currency at `created_at` (zero amounts left out). */
  balances: z.record(z.string(), decimal),
  /** The exact text hashed into the leaf. */
  leaf_data: z.string(),
  leaf: z.string(),
  path: z.array(merklePathStepResponse),
});
export type SolvencyProofEntity = z.infer<typeof solvencyProofResponse>;
