/** Business constants from the specification (docs/accounts.md#constants, docs/trading.md#constants). */
export const LIMITS = {
  idleLogoutMs: 60 * 60 * 1000,
  otpResendCountdownSeconds: 60,
  resendLimitDisableSeconds: 5,
  toastDurationMs: 2000,
  /** How long an account stays blocked after too many failed login checks (its message says so). */
  loginLockMinutes: 15,
  themeTransitionMs: 1000,
  profileReloadDelayMs: 2000,
  tablePageLimit: 10,
  defaultStorageLimit: 50,
  contact: { subjectMax: 200, messageMax: 500, nameInputMax: 30, nameRuleMax: 200 },
} as const;

/** Local storage keys used by the web app. */
export const STORAGE_KEYS = {
  theme: 'ThemeMode',
  favouriteMarkets: 'favMarketsId',
  csrfToken: 'csrfToken',
  /** The visitor accepted the privacy policy (the consent pop-up); kept by account verification, not by logout. */
  privacyConsent: 'privacyConsent',
} as const;

/** Market shown when none is chosen. */
export const DEFAULT_MARKET = 'ethbtc';
/** Default maker fee rate, as a decimal string. */
export const DEFAULT_MAKER_FEE = '0.001';

/** API prefixes of the OpenDAX family (docs/platform.md#wire-contract). */
export const API = {
  barong: '/api/v2/barong',
  peatio: '/api/v2/peatio',
  applogic: '/api/v2/applogic',
  ranger: '/api/v2/ranger',
  /** Developer tools (faucet, mining), only when DEV_TOOLS is on. */
  dev: '/api/v2/dev',
  /** The operator console's API: staff only. */
  admin: '/api/v2/admin',
} as const;

/** Who sent a contact message, derived from the session on the server. */
export const CONTACT_USER_TYPES = ['Authorize User', 'Non Authorize User'] as const;
export type ContactUserType = (typeof CONTACT_USER_TYPES)[number];

/**
 * The least account level each privilege needs (Peatio's `GET /public/member-levels`). Deposits and trading need
 * an active account, which verification makes level 2; withdrawals (and cards) need level 3 (trading spec).
 */
export const MEMBER_LEVELS = {
  deposit: { minimum_level: 2 },
  withdraw: { minimum_level: 3 },
  trading: { minimum_level: 2 },
} as const;

/**
 * Where the app serves its coin icons (docs/wallet.md#constants: "Coin and currency icons are shown by ticker"): simple SVGs
 * of its own, one per seeded ticker, and `generic` for any other coin.
 */
export const COIN_ICONS = { path: '/icons/coins', generic: 'generic' } as const;

/** The app's own icon of a ticker (`/icons/coins/btc.svg`). */
export const coinIconPath = (ticker: string): string => `${COIN_ICONS.path}/${ticker.toLowerCase()}.svg`;

/**
 * The most entries an IP whitelist holds: the login whitelist of an account, or the allowed IPs of one API key.
 * Each entry is an IPv4 or IPv6 address or CIDR range of at most `entryLength` characters.
 */
export const IP_WHITELIST = { maxEntries: 20, entryLength: 64 } as const;
