import type pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';
import { apiLogin, DEMO_PASSWORD, postFromPage } from './accounts.ts';
import { openPage } from './browser.ts';
import { pollUntil } from './poll.ts';
import { totpCodes } from './totp.ts';

/** Blocks the simulated chains need before a deposit is credited (the seed's min_confirmations). */
const CONFIRMATIONS = 30;

/**
 * Ends the 24-hour hold that enabling 2FA started, which a test cannot wait out: the hold runs from the latest
 * successful 2FA change (an `otp` activity) and the last password change, so both move a day back.
 */
export async function liftWithdrawHold(db: pg.Pool, email: string): Promise<void> {
  await db.query(
    `update activities set created_at = created_at - interval '25 hours'
      where topic = 'otp' and user_id = (select id from users where email = $1)`,
    [email],
  );
  await db.query(
    `update users set password_changed_at = password_changed_at - interval '25 hours' where email = $1`,
    [email],
  );
}

/** Turns two-factor on for the user signed in on `page` through the API; returns their next codes. */
export async function enableTwoFactorFromPage(page: Page): Promise<() => Promise<string>> {
  const qr = await postFromPage(page, '/api/v2/barong/resource/otp/generate_qrcode', {});
  const secret = new URL((qr.body as { data: { url: string } }).data.url).searchParams.get('secret') ?? '';
  const nextCode = totpCodes(secret);
  const enabled = await postFromPage(page, '/api/v2/barong/resource/otp/enable', { code: await nextCode() });
  expect(enabled.status).toBe(201);
  return nextCode;
}

/**
 * Makes the user signed in on `page` able to withdraw: two-factor on (through the API), level 3, and no 24-hour
 * hold. Returns their next authenticator codes.
 */
export async function withdrawReady(page: Page, db: pg.Pool, email: string): Promise<() => Promise<string>> {
  const nextCode = await enableTwoFactorFromPage(page);
  await db.query('update users set level = 3 where email = $1', [email]);
  await liftWithdrawHold(db, email);
  return nextCode;
}

/** GETs JSON from inside the page, with its cookies. */
export function getFromPage<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;
}

/** The signed-in user's available balance of a currency. */
export async function balanceOf(page: Page, currency: string): Promise<number> {
  const answer = await getFromPage<{ balance?: string }>(page, `/api/v2/peatio/account/balances/${currency}`);
  return Number(answer.balance ?? 0);
}

/** How long a deposit address or a credited deposit may take on a loaded machine, and how often to look. */
const POLL = { timeout: 30_000, interval: 250 };

/**
 * The deposit address of a currency on a network for the user signed in on `page`, asked again until the server
 * answers one (it may answer `null` at first).
 */
export async function depositAddress(page: Page, currency: string, blockchainKey: string): Promise<string> {
  const { address } = await pollUntil(
    () =>
      getFromPage<{ address: string | null }>(
        page,
        `/api/v2/peatio/account/deposit_address/${currency}?blockchain_key=${blockchainKey}`,
      ),
    (answer) => Boolean(answer.address),
    { ...POLL, message: `no ${currency} deposit address on ${blockchainKey}` },
  );
  return address as string;
}

/**
 * Deposits `amount` of a currency to the signed-in user from the dev faucet of a simulated chain and mines the
 * blocks that confirm it; returns once the balance shows it.
 */
export async function depositFromFaucet(
  page: Page,
  currency: string,
  blockchainKey: string,
  amount: string,
): Promise<void> {
  const before = await balanceOf(page, currency);
  const address = await depositAddress(page, currency, blockchainKey);
  const sent = await postFromPage(page, '/api/v2/dev/faucet', {
    blockchain_key: blockchainKey,
    currency,
    address,
    amount,
  });
  if (sent.status !== 201) throw new Error(`faucet refused: ${sent.status} ${JSON.stringify(sent.body)}`);
  // The confirmations are mined at the first look and again at every tenth, until the balance shows the deposit.
  let looks = 0;
  await pollUntil(
    async () => {
      if (looks++ % 10 === 0)
        await postFromPage(page, '/api/v2/dev/mine', {
          blockchain_key: blockchainKey,
          blocks: CONFIRMATIONS,
        });
      return balanceOf(page, currency);
    },
    (balance) => balance >= before + Number(amount),
    { ...POLL, interval: 500, message: `the ${amount} ${currency} deposit was not credited` },
  );
}

/**
 * Bob, a demo user, signed in on a page of his own with a bid for 100 TRX at 0.1 USDT (the e2e app starts with
 * empty books): a price for a swap. When the test ends, passed or failed, his orders are cancelled and his context
 * closed, so the next spec file finds his open orders and the book as they were.
 */
export async function bobBidsForTrx(browser: Browser) {
  const bob = await openPage(browser);
  await apiLogin(bob.page, 'bob@example.com', DEMO_PASSWORD);
  const bid = await postFromPage(bob.page, '/api/v2/peatio/market/orders', {
    market: 'trxusdt',
    side: 'buy',
    ord_type: 'limit',
    volume: '100',
    price: '0.1',
  });
  onTestFinished(async () => {
    await postFromPage(bob.page, '/api/v2/peatio/market/orders/cancel', {});
    await bob.context.close();
  });
  expect(bid.status).toBe(201);
  return bob;
}
