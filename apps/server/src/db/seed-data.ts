/** Demo reference data: currencies, chains, networks, markets and fees (amounts as decimal strings). */

export const SEED_CURRENCIES = [
  {
    id: 'btc',
    name: 'Bitcoin',
    type: 'coin',
    precision: 8,
    position: 1,
    swapFee: '0.002',
    description: 'The first decentralised digital currency, secured by proof of work.',
    homepage: 'https://bitcoin.org',
  },
  {
    id: 'eth',
    name: 'Ethereum',
    type: 'coin',
    precision: 18,
    position: 2,
    swapFee: '0.002',
    description: 'The native coin of the Ethereum smart-contract network.',
    homepage: 'https://ethereum.org',
  },
  {
    id: 'usdt',
    name: 'Tether USD',
    type: 'coin',
    precision: 6,
    position: 3,
    swapFee: '0.001',
    description: 'A stablecoin that tracks the US dollar, on Ethereum (ERC-20) and TRON (TRC-20).',
    homepage: 'https://tether.to',
  },
  {
    id: 'trx',
    name: 'TRON',
    type: 'coin',
    precision: 6,
    position: 4,
    swapFee: '0.002',
    description: 'The native coin of the TRON network.',
    homepage: 'https://tron.network',
  },
  {
    id: 'eur',
    name: 'Euro',
    type: 'fiat',
    precision: 2,
    position: 5,
    swapFee: '0.002',
    description: 'The currency of the euro area, paid out by SEPA transfer.',
    homepage: 'https://www.ecb.europa.eu',
  },
] as const;

/**
 * No explorer templates: these chains are simulators and a local devnet that no public explorer knows. A network
 * pointed at a public chain gets its explorer's templates when its adapter is built (wallet/chains.ts).
 */
export const SEED_BLOCKCHAINS = [
  { key: 'btc-sim', name: 'Bitcoin (simulated)', client: 'bitcoin', confirmations: 30 },
  { key: 'eth-devnet', name: 'Ethereum (local devnet)', client: 'evm', confirmations: 30 },
  { key: 'tron-sim', name: 'TRON (simulated)', client: 'tron', confirmations: 30 },
] as const;

export const SEED_NETWORKS = [
  {
    currency: 'btc',
    chain: 'btc-sim',
    protocol: 'BTC',
    minDeposit: '0.0001',
    minWithdraw: '0.001',
    fee: '0.0005',
  },
  {
    currency: 'eth',
    chain: 'eth-devnet',
    protocol: 'ETH',
    minDeposit: '0.001',
    minWithdraw: '0.01',
    fee: '0.002',
  },
  { currency: 'usdt', chain: 'eth-devnet', protocol: 'ERC20', minDeposit: '1', minWithdraw: '10', fee: '5' },
  { currency: 'usdt', chain: 'tron-sim', protocol: 'TRC20', minDeposit: '1', minWithdraw: '5', fee: '1' },
  { currency: 'trx', chain: 'tron-sim', protocol: 'TRX', minDeposit: '1', minWithdraw: '10', fee: '1' },
] as const;

/** price_precision + amount_precision <= quote precision, so price * amount is exact in quote units. */
export const SEED_MARKETS = [
  {
    id: 'ethbtc',
    base: 'eth',
    quote: 'btc',
    pp: 5,
    ap: 3,
    minPrice: '0.00001',
    maxPrice: '10',
    minAmount: '0.001',
  },
  {
    id: 'btcusdt',
    base: 'btc',
    quote: 'usdt',
    pp: 1,
    ap: 5,
    minPrice: '0.1',
    maxPrice: '10000000',
    minAmount: '0.00001',
  },
  {
    id: 'ethusdt',
    base: 'eth',
    quote: 'usdt',
    pp: 2,
    ap: 4,
    minPrice: '0.01',
    maxPrice: '1000000',
    minAmount: '0.0001',
  },
  {
    id: 'trxusdt',
    base: 'trx',
    quote: 'usdt',
    pp: 5,
    ap: 1,
    minPrice: '0.00001',
    maxPrice: '1000',
    minAmount: '1',
  },
] as const;

export const SEED_DEFAULT_FEE = { maker: '0.001', taker: '0.002' } as const;

/** Starting balances of each demo user, per currency. */
export const DEMO_BALANCES: Record<string, string> = {
  btc: '10',
  eth: '100',
  usdt: '100000',
  trx: '1000000',
  eur: '10000',
};

/**
 * The demo users. Alice's identity is verified (level 3, `document: verified`, a complete profile), so a person
 * can apply for a card or withdraw right away; Bob is level 2, as a newly verified account.
 */
export const DEMO_USERS: readonly {
  email: string;
  first: string;
  last: string;
  phone: string;
  identityVerified: boolean;
}[] = [
  { email: 'alice@example.com', first: 'Alice', last: 'Demo', phone: '436641234567', identityVerified: true },
  { email: 'bob@example.com', first: 'Bob', last: 'Demo', phone: '436641234568', identityVerified: false },
];

/** The profile of a demo user whose identity is verified (Vienna, Austria). */
export const DEMO_VERIFIED_PROFILE = {
  gender: 'female',
  dob: '1990-04-12',
  address: 'Stephansplatz 1',
  postcode: '1010',
  city: 'Wien',
} as const;

/** Reference prices for the demo order books (quote per base), and the step between ladder rungs. */
export const DEMO_BOOKS = [
  { market: 'ethbtc', mid: '0.035', step: '0.0002', volume: '1' },
  { market: 'btcusdt', mid: '65000', step: '25', volume: '0.05' },
  { market: 'ethusdt', mid: '2300', step: '2.5', volume: '0.5' },
  { market: 'trxusdt', mid: '0.25', step: '0.0005', volume: '500' },
] as const;
