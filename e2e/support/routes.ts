import { LIVE_TRADES } from './live-market.ts';

/**
 * Every screen of the web app (apps/web/src/app/routes.tsx), for the checks that visit them all (the accessibility
 * spec). A new screen is added here when its route is added there.
 */

/** Who can open a screen: anybody, visitors only (signed-in users are sent on), or signed-in users only. */
export type Access = 'public' | 'guest' | 'user';

/** A screen to visit: where, for whom, and what shows once it has loaded. */
export interface Screen {
  /** The path to open (a parameter filled with an example value). */
  path: string;
  access: Access;
  /** A Playwright selector that is visible once the screen's content has loaded. */
  ready: string;
  /**
   * Screens fed by the streams: what shows once the live data has arrived (`count` elements of `selector`), and
   * that the screen must be checked again after a live update (a new trade pushed while it is open).
   */
  live?: { selector: string; count: number };
}

const heading = (name: string) => `role=heading[name="${name}"]`;
const testId = (id: string) => `[data-testid="${id}"]`;

/** The screens, in the order of the route table. */
export const SCREENS: readonly Screen[] = [
  { path: '/', access: 'public', ready: 'main h1' },
  { path: '/login', access: 'guest', ready: heading('Login') },
  { path: '/2fa', access: 'guest', ready: heading('Login') },
  { path: '/register', access: 'guest', ready: 'main form' },
  { path: '/forgot-password', access: 'guest', ready: 'main form' },
  { path: '/password-reset/an-example-token', access: 'public', ready: 'main form' },
  // Without a login waiting for verification it sends visitors to /login, and so signed-in users to /settings.
  { path: '/verify-account', access: 'public', ready: 'main h2' },
  // Posts the link's token (a made-up one here: refused) and sends everyone on to /login (a user on to /settings).
  { path: '/accounts/confirmation?confirmation_token=1.1.0', access: 'public', ready: 'main h2' },
  { path: '/success', access: 'public', ready: 'main h2' },
  { path: '/terms', access: 'public', ready: 'main h1' },
  { path: '/privacy', access: 'public', ready: 'main h1' },
  { path: '/faq', access: 'public', ready: 'main h1' },
  { path: '/contact', access: 'public', ready: heading('Contact us') },
  { path: '/amlPolicy', access: 'public', ready: 'main h1' },
  { path: '/european-account', access: 'public', ready: 'main h1' },
  { path: '/settings', access: 'user', ready: 'main h2' },
  { path: '/api-tokens', access: 'user', ready: 'main h2' },
  { path: '/update-number/phone', access: 'user', ready: 'main form' },
  { path: '/sumsub-kyc', access: 'user', ready: 'main h2' },
  { path: '/balance', access: 'user', ready: testId('balance-btc') },
  { path: '/deposit_withdraw', access: 'user', ready: testId('tab-withdraw') },
  { path: '/card', access: 'user', ready: 'main h2' },
  { path: '/view_statement', access: 'user', ready: 'main h2' },
  { path: '/history/account', access: 'user', ready: testId('history-search') },
  { path: '/history/orders', access: 'user', ready: heading('Order History') },
  { path: '/swap', access: 'user', ready: testId('swap-amount') },
  // A personal account is told that mass payouts are for verified businesses.
  { path: '/payouts', access: 'user', ready: testId('payouts-business-only') },
  { path: '/payouts/1', access: 'user', ready: 'main h1' },
  {
    path: '/trade/ethbtc',
    access: 'public',
    ready: testId('order-book'),
    // The live market (support/live-market.ts) fills the recent trades beyond what shows unscrolled.
    live: { selector: testId('trade-row'), count: LIVE_TRADES },
  },
  { path: '/dev/inbox', access: 'public', ready: 'main h2' },
  { path: '/dev/faucet', access: 'public', ready: 'main h2' },
  { path: '/dev/card-terminal', access: 'public', ready: 'main h2' },
  { path: '/kyc', access: 'user', ready: 'main h2' },
  // A customer's view of the console (refused); staff screens are checked in admin.test.ts.
  { path: '/admin', access: 'user', ready: testId('admin-refused') },
];

/** The screens a visitor (`signedIn` false) or a signed-in user can open without being sent elsewhere. */
export function screensFor(signedIn: boolean): Screen[] {
  return SCREENS.filter((s) => s.access === 'public' || s.access === (signedIn ? 'user' : 'guest'));
}
