/**
 * The simulators' advisory locks: one family (the first of PostgreSQL's two 32-bit keys) per simulated node kind,
 * the chain's name hashed by PostgreSQL as the member. They are registered in the server's lock registry
 * (apps/server/src/db/locks.ts, `RESERVED_FAMILIES`), whose test checks they match, so no lock of the product
 * shares their keys.
 */
export const SIM_LOCK_FAMILIES = {
  /** Per simulated Bitcoin chain: blocks and transactions change one transaction at a time. */
  bitcoin: 7_040_001,
  /** Per simulated TRON chain: likewise. */
  tron: 7_040_002,
} as const;

/** The statement that takes a simulated chain's lock for the transaction: `$1` the family, `$2` the chain. */
export const SIM_CHAIN_LOCK = 'select pg_advisory_xact_lock($1, hashtext($2))';
