/**
 * Blockchain node simulators for development and tests. Each speaks its node's own protocol over HTTP, so the
 * app reaches it exactly as it reaches a real node (`BTC_RPC_URL`, `TRON_API_URL` replace them), keeps its state
 * in PostgreSQL, produces blocks on a timer or on demand, reorganises on demand, and validates the signed
 * transactions it is given: inputs exist and are unspent, signatures verify, a double spend is refused with the
 * node's own error.
 */
export {
  type BitcoinSimulator,
  type BitcoinSimulatorOptions,
  startBitcoinSimulator,
} from './bitcoin/index.ts';
export { SIM_LOCK_FAMILIES } from './locks.ts';
export {
  BITCOIN_SIMULATOR_MIGRATIONS,
  type ChainSimulatorMigrations,
  TRON_SIMULATOR_MIGRATIONS,
} from './schema.ts';
export * from './tron/index.ts';
