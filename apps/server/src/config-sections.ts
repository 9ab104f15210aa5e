/**
 * The parts of {@link Config} that group one area's settings (backups, the card program, identity verification,
 * withdrawal review); config.ts reads and validates them.
 */

/** When a withdrawal waits for staff review besides its limits (0 turns a rule off). */
export interface WithdrawReviewRules {
  /** Hours after a saved address is activated during which withdrawals to it wait. */
  newBeneficiaryHours: number;
  /** Withdrawals that take half or more of what was deposited in this many minutes wait. */
  passThroughMinutes: number;
}

export interface BackupConfig {
  /** BACKUP_DIR: where backups go, with continuous WAL archiving of the embedded server into `dir/wal`. */
  dir: string | undefined;
  /** A backup by the app itself every this many hours (0: only by hand); needs `dir`. */
  intervalHours: number;
  /** Complete backups kept in `dir` after each new one (older ones, and WAL older than the oldest, go). */
  keep: number;
}

export interface CardConfig {
  /** `simulator` (built in, the default: Marqeta's paths, Basic auth and signed webhooks) or `marqeta`. */
  issuer: 'simulator' | 'marqeta';
  /** Simulator only: approve a submitted holder after this many seconds (0: the operator decides). */
  autoApproveSeconds: number;
  /** Simulator only: an ordered card ships after this many seconds and is delivered as long again later. */
  simShipSeconds: number;
  /** How often the annual fee run happens (ms); 0: never on its own. */
  pollMs: number;
  /** Time limit of one issuer call; beyond it the call answers 504 `account.card.issuer_timeout`. */
  issuerTimeoutMs: number;
  /** Simulator only: a top-up (funding order) settles on the card after this many seconds. */
  topupSettleSeconds: number;
  /**
   * Fees and limits in USDT (decimal strings); the top-up fee in percent; `eurPerUsdt` the EUR price of one USDT
   * (CARD_EUR_PER_USDT: there is no EUR market to read it from).
   */
  fees: {
    activationFee: string;
    annualFee: string;
    /** Percent of a top-up. */
    topupFee: string;
    /** Top-ups per day. */
    topupLimit: string;
    /** Largest card balance. */
    loadLimit: string;
    /** EUR per 1 USDT (CARD_EUR_PER_USDT). */
    eurPerUsdt: string;
  };
  /** The real Marqeta's address and credentials, with CARD_ISSUER=marqeta. */
  marqeta:
    | {
        baseUrl: string;
        appToken: string;
        accessToken: string;
        cardProductToken: string;
        webhook: { username: string; password: string; secret: string };
      }
    | undefined;
}

export interface KycConfig {
  /** `simulator` (built in, the default: same REST paths, signatures and webhooks as Sumsub) or `sumsub`. */
  provider: 'simulator' | 'sumsub';
  /** The verification level whose GREEN review makes a user level 3. */
  levelName: string;
  /** The company (KYB) level whose GREEN review verifies a business account's company. */
  kybLevelName: string;
  /** Simulator only: approve a submitted applicant after this many seconds (0: a reviewer decides). */
  autoApproveSeconds: number;
  /** Simulator only: the `x-payload-digest-alg` its webhooks use. */
  simDigestAlg: 'HMAC_SHA1_HEX' | 'HMAC_SHA256_HEX' | 'HMAC_SHA512_HEX';
  /** The real service's address and credentials, with KYC_PROVIDER=sumsub. */
  sumsub: { baseUrl: string; appToken: string; secretKey: string; webhookSecret: string } | undefined;
  /** The Sumsub WebSDK script the web app loads with KYC_PROVIDER=sumsub. */
  webSdkUrl: string;
}

/** Where the Bitcoin and TRON networks and the signer are. */
export interface ChainsConfig {
  /** BTC_RPC_URL: Bitcoin Core's JSON-RPC, Basic credentials in the URL; unset: the built-in simulator. */
  bitcoinRpcUrl: string | undefined;
  /** TRON_API_URL: a java-tron full node's HTTP API (or TronGrid); unset: the built-in simulator. */
  tronApiUrl: string | undefined;
  /** TRON_API_KEY: sent as TRON-PRO-API-KEY, as TronGrid wants. */
  tronApiKey: string | undefined;
  /** TRON_USDT_CONTRACT: the TRC-20 USDT contract (mainnet's by default). */
  tronUsdtContract: string;
  /** Loopback ports of the simulators (0: any free port, in one process). */
  simBitcoinPort: number;
  simTronPort: number;
  /** SIGNER_URL and SIGNER_TOKEN: a signer elsewhere; unset: the app starts its own as a child process. */
  signer: { url: string; token: string } | undefined;
}

/** A configuration value that failed validation; its message is one line naming the variable. */
export class ConfigError extends Error {}
