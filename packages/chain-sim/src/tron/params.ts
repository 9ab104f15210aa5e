/**
 * The network's economics, as java-tron mainnet has them today (TRON documentation, "Resource Model" and
 * "Account"; `/wallet/getchainparameters` on mainnet):
 * - bandwidth: a transaction consumes its serialized size in bytes plus 64 (the room for its result); every
 *   account has 600 free bandwidth a day, beyond which the bytes are paid by burning `getTransactionFee`
 *   (1000 sun) each; no staking in the simulator, so there is no staked bandwidth or energy.
 * - a transfer that creates the recipient's account burns `getCreateNewAccountFeeInSystemContract` (1 TRX) and,
 *   as it cannot use free bandwidth, `getCreateAccountFee` (0.1 TRX) for its bandwidth.
 * - energy is burnt at `getEnergyFee` (100 sun per energy, 0.0001 TRX), up to the transaction's `fee_limit`
 *   (at most `getMaxFeeLimit`, 15,000 TRX); running out of it fails the call with OUT_OF_ENERGY, and all the
 *   energy the fee_limit allowed is burnt.
 * - a USDT `transfer` consumes 64,285 energy when the recipient already holds USDT and 130,285 when it does not
 *   (a new storage slot), about 345 bytes of bandwidth: the figures observed on mainnet (dynamic energy
 *   included). A transfer the sender's balance cannot cover reverts after SIMULATED_REVERT_ENERGY.
 */
export const CHAIN_PARAMETERS = {
  getMaintenanceTimeInterval: 21_600_000,
  getAccountUpgradeCost: 9_999_000_000,
  getCreateAccountFee: 100_000,
  getTransactionFee: 1_000,
  getAssetIssueFee: 1_024_000_000,
  getWitnessPayPerBlock: 8_000_000,
  getWitnessStandbyAllowance: 115_200_000_000,
  getCreateNewAccountFeeInSystemContract: 1_000_000,
  getCreateNewAccountBandwidthRate: 1,
  getAllowCreationOfContracts: 1,
  getRemoveThePowerOfTheGr: -1,
  getEnergyFee: 100,
  getExchangeCreateFee: 1_024_000_000,
  getMaxCpuTimeOfOneTx: 80,
  getTotalEnergyLimit: 180_000_000_000,
  getFreeNetLimit: 600,
  getTotalNetLimit: 43_200_000_000,
  getMaxFeeLimit: 15_000_000_000,
  getForbidTransferToContract: 1,
} as const;

/** Bytes a transaction is charged beyond its serialized size, per contract (java-tron's MAX_RESULT_SIZE_IN_TX). */
export const RESULT_SIZE_PER_CONTRACT = 64;
/** Free bandwidth is counted over a sliding day (the node recovers it linearly over 24 h; close enough here). */
export const FREE_NET_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Energy of a USDT transfer to an address that holds USDT / that holds none. */
export const TRANSFER_ENERGY_HOLDER = 64_285;
export const TRANSFER_ENERGY_NEW_HOLDER = 130_285;
/** Energy a reverted transfer (balance too low) burns in the simulator: the checks before the revert. */
export const SIMULATED_REVERT_ENERGY = 9_024;
/** Energy of a `balanceOf` call (the Nile capture in the `triggerconstantcontract` documentation). */
export const BALANCE_OF_ENERGY = 935;
/** Mainnet produces a block every 3 s; block timestamps are multiples of it. */
export const BLOCK_INTERVAL_MS = 3_000;
/** A transaction expires a minute after the head block it was built on (the node's default). */
export const EXPIRATION_MS = 60_000;
/** Blocks are solidified 19 blocks deep: transactions refer to (TAPOS) the newest solidified block. */
export const SOLIDIFIED_DEPTH = 19;
/** The block version mainnet blocks carry today. */
export const BLOCK_VERSION = 34;

/** `transfer(address,uint256)`, `balanceOf(address)` selectors and the `Transfer` event topic of a TRC-20. */
export const TRANSFER_SELECTOR = 'a9059cbb';
export const BALANCE_OF_SELECTOR = '70a08231';
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
