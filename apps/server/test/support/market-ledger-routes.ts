/**
 * The markets, ledger, solvency and custody routes for admin.test.ts's list of every admin route: the roles allowed and a request
 * that passes validation.
 */
export const MARKET_AND_LEDGER_ROUTES = [
  { method: 'GET', url: '/markets', allowed: ['technical'] },
  {
    method: 'POST',
    url: '/markets',
    allowed: ['technical'],
    body: {
      id: 'ethtrx',
      base_unit: 'eth',
      quote_unit: 'trx',
      amount_precision: 2,
      price_precision: 2,
      min_price: '0.01',
      min_amount: '0.01',
      maker_fee: '0.001',
      taker_fee: '0.002',
    },
  },
  {
    method: 'POST',
    url: '/markets/btcusdt',
    allowed: ['technical'],
    body: { state: 'enabled' },
    path: '/markets/{id}',
  },
  { method: 'GET', url: '/networks', allowed: ['technical'] },
  {
    method: 'POST',
    url: '/networks/trx/tron-sim',
    allowed: ['technical'],
    body: { withdraw_enabled: true },
    path: '/networks/{currency}/{blockchain_key}',
  },
  { method: 'GET', url: '/ledger', allowed: ['accountant'] },
  { method: 'GET', url: '/ledger.csv', allowed: ['accountant'] },
  { method: 'GET', url: '/solvency', allowed: ['accountant'] },
  { method: 'GET', url: '/solvency.csv', allowed: ['accountant'] },
  { method: 'POST', url: '/solvency/snapshots', allowed: ['accountant'] },
  { method: 'GET', url: '/custody', allowed: ['accountant', 'technical'] },
  {
    method: 'PUT',
    url: '/custody/limits',
    allowed: ['technical'],
    body: { blockchain_key: 'tron-sim', currency: 'trx', hot_min: '1', hot_max: '2' },
  },
  {
    method: 'POST',
    url: '/custody/alerts/999999/resolve',
    allowed: ['technical'],
    path: '/custody/alerts/{id}/resolve',
  },
];
