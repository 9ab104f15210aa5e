import { MARKET_AND_LEDGER_ROUTES } from './market-ledger-routes.ts';

/** One admin route for the refusal tests: the roles allowed, and a request that passes validation. */
export interface AdminRoute {
  method: string;
  url: string;
  allowed: string[];
  body?: unknown;
  /** The path as the API document names it, when the URL has parameters. */
  path?: string;
}

/**
 * Every admin route (admin.test.ts checks that this list covers what the server registers), acting on the
 * customer `uid` where a route takes one.
 */
export const adminRoutes = (uid: string): AdminRoute[] => [
  { method: 'GET', url: '/users?q=customer', allowed: ['support', 'compliance', 'accountant'] },
  {
    method: 'GET',
    url: `/users/${uid}`,
    allowed: ['support', 'compliance', 'accountant'],
    path: '/users/{uid}',
  },
  {
    method: 'POST',
    url: `/users/${uid}/lock`,
    allowed: ['support'],
    body: { reason: 'checking' },
    path: '/users/{uid}/lock',
  },
  {
    method: 'POST',
    url: `/users/${uid}/unlock`,
    allowed: ['support'],
    body: { reason: 'checked' },
    path: '/users/{uid}/unlock',
  },
  {
    method: 'POST',
    url: `/users/${uid}/reset_2fa`,
    allowed: ['support'],
    body: { reason: 'identity checked' },
    path: '/users/{uid}/reset_2fa',
  },
  {
    method: 'DELETE',
    url: `/users/${uid}/sessions`,
    allowed: ['support'],
    path: '/users/{uid}/sessions',
  },
  {
    method: 'GET',
    url: `/users/${uid}/statement?currency=btc`,
    allowed: ['accountant', 'compliance'],
    path: '/users/{uid}/statement',
  },
  {
    method: 'GET',
    url: `/users/${uid}/statement.csv?currency=btc`,
    allowed: ['accountant', 'compliance'],
    path: '/users/{uid}/statement.csv',
  },
  { method: 'GET', url: '/kyc', allowed: ['compliance'] },
  {
    method: 'GET',
    url: `/kyc/${uid}/documents/1`,
    allowed: ['compliance'],
    path: '/kyc/{uid}/documents/{id}',
  },
  {
    method: 'POST',
    url: `/kyc/${uid}/review`,
    allowed: ['compliance'],
    body: { decision: 'approve', reason: 'looks fine' },
    path: '/kyc/{uid}/review',
  },
  { method: 'GET', url: '/card_holders', allowed: ['compliance'] },
  {
    method: 'GET',
    url: `/card_holders/${uid}/documents/1`,
    allowed: ['compliance'],
    path: '/card_holders/{uid}/documents/{id}',
  },
  {
    method: 'POST',
    url: `/card_holders/${uid}/review`,
    allowed: ['compliance'],
    body: { decision: 'approve', reason: 'looks fine' },
    path: '/card_holders/{uid}/review',
  },
  { method: 'GET', url: '/adjustments', allowed: ['accountant'] },
  {
    method: 'POST',
    url: '/adjustments',
    allowed: ['accountant'],
    body: { uid: uid, currency: 'usdt', amount: '1', reason: 'route check' },
  },
  {
    method: 'POST',
    url: '/adjustments/999999/approve',
    allowed: ['accountant'],
    body: {},
    path: '/adjustments/{id}/approve',
  },
  {
    method: 'POST',
    url: '/adjustments/999999/reject',
    allowed: ['accountant'],
    body: {},
    path: '/adjustments/{id}/reject',
  },
  { method: 'GET', url: '/withdrawals', allowed: ['compliance', 'accountant'] },
  { method: 'GET', url: '/closures', allowed: ['support', 'compliance', 'accountant'] },
  { method: 'GET', url: '/monitoring/alerts', allowed: ['compliance'] },
  ...(['close', 'escalate'] as const).map((action) => ({
    method: 'POST',
    url: `/monitoring/alerts/999999/${action}`,
    allowed: ['compliance'],
    body: action === 'close' ? { reason: 'route check' } : { narrative: 'route check' },
    path: `/monitoring/alerts/{id}/${action}`,
  })),
  {
    method: 'GET',
    url: '/monitoring/reports/999999',
    allowed: ['compliance'],
    path: '/monitoring/reports/{id}',
  },
  {
    method: 'POST',
    url: '/monitoring/reports/999999/suspend',
    allowed: ['compliance'],
    body: { withdrawal_id: 999999 },
    path: '/monitoring/reports/{id}/suspend',
  },
  {
    method: 'GET',
    url: '/monitoring/reports/999999/export',
    allowed: ['compliance'],
    path: '/monitoring/reports/{id}/export',
  },
  { method: 'GET', url: '/monitoring/risk', allowed: ['compliance'] },
  {
    method: 'PUT',
    url: `/monitoring/risk/${uid}`,
    allowed: ['compliance'],
    body: { class: 'high', reason: 'route check' },
    path: '/monitoring/risk/{uid}',
  },
  { method: 'GET', url: '/bank_transfers', allowed: ['compliance', 'accountant'] },
  {
    method: 'POST',
    url: '/bank_transfers/999999/assign',
    allowed: ['compliance', 'accountant'],
    body: { uid: uid, reason: 'route check' },
    path: '/bank_transfers/{id}/assign',
  },
  {
    method: 'POST',
    url: '/bank_transfers/999999/return',
    allowed: ['compliance', 'accountant'],
    body: { reason: 'route check' },
    path: '/bank_transfers/{id}/return',
  },
  ...['approve', 'reject', 'resolve'].map((action) => ({
    method: 'POST',
    url: `/withdrawals/999999/${action}`,
    allowed: ['compliance', 'accountant'],
    body: action === 'resolve' ? { decision: 'failed' } : { reason: 'route check' },
    path: `/withdrawals/{id}/${action}`,
  })),
  { method: 'GET', url: '/sanctions/hits', allowed: ['compliance'] },
  { method: 'GET', url: '/sanctions/list', allowed: ['compliance'] },
  {
    method: 'POST',
    url: '/sanctions/hits/999999/decide',
    allowed: ['compliance'],
    body: { decision: 'false_positive', reason: 'route check' },
    path: '/sanctions/hits/{id}/decide',
  },
  { method: 'GET', url: '/travel_rule/deposits', allowed: ['compliance'] },
  ...['release', 'return'].map((decision) => ({
    method: 'POST',
    url: `/travel_rule/deposits/999999/${decision}`,
    allowed: ['compliance'],
    body: { reason: 'route check' },
    path: `/travel_rule/deposits/{id}/${decision}`,
  })),
  { method: 'GET', url: '/withdraw_limits', allowed: ['compliance', 'accountant'] },
  {
    method: 'PUT',
    url: '/withdraw_limits',
    allowed: ['compliance', 'accountant'],
    body: { level: 3, currency: 'usdt', per_withdrawal: '1000', per_day: null },
  },
  { method: 'GET', url: '/actions', allowed: ['support', 'compliance', 'accountant', 'technical'] },
  { method: 'GET', url: '/metrics', allowed: ['technical'] },
  { method: 'GET', url: '/health', allowed: ['technical'] },
  ...MARKET_AND_LEDGER_ROUTES,
];
