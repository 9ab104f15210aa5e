import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  auditLedger,
  createPool,
  type ServerProcess,
  serverSetup,
  startEmbeddedPostgres,
  startServerProcess,
} from '@exchange/server/harness';
import { encodeP2wpkhAddress, type OutboxMessage } from '@exchange/shared';
import { WEB_DIST } from '@exchange/web/build-output';
import type pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseapp, serveBaseApp } from '../support/baseapp.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { advanceServerClock } from '../support/clock.ts';
import { totpCodes } from '../support/totp.ts';

// Issue 30, "Done means": BaseApp 2.6's calls (our reconstruction, run in Chromium at the server's origin) for
// sign-up, confirmation, a login without two-factor, the deposit address across balance refreshes, the
// per-currency beneficiary list, a withdrawal with a beneficiary and no blockchain_key, and a beneficiary delete,
// against a server with BASEAPP_COMPAT on. And our own web app's login there, with its 6-digit code.
const PASSWORD = 'Tr4ding-Desk#Nova';
const POLL = { timeout: 60_000, interval: 500 };

let browser: Browser;
let server: ServerProcess;
let base: string;
let dataDir: string;
let env: Record<string, string>;
let db: pg.Pool;

beforeAll(async () => {
  ({ dataDir, env, base } = await serverSetup('exchange-baseapp-', {
    // Its clock moves for the authenticator codes (support/totp.ts) instead of the test waiting.
    NODE_ENV: 'test',
    WEB_DIST,
    BASEAPP_COMPAT: 'true',
    // A withdrawal right after turning two-factor on would otherwise wait a day.
    WITHDRAW_HOLD_HOURS: '0',
  }));
  env.PUBLIC_URL = base;
  [server, browser] = await Promise.all([startServerProcess(env), launchBrowser()]);
  const quiet = { info: () => {}, warn: () => {} };
  const database = await startEmbeddedPostgres(dataDir, Number(env.EMBEDDED_PG_PORT), quiet, {
    attach: true,
  });
  db = createPool(database.url, 1);
});

afterAll(async () => {
  // Every amount moved went through the ledger.
  if (db) expect(await auditLedger(db).finally(() => db.end())).toEqual([]);
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited;
  await rm(dataDir, { recursive: true, force: true });
});

/** The newest mail to `to` (the development outbox; each secret is shown once). */
async function lastMail(to: string): Promise<OutboxMessage> {
  const res = await fetch(`${base}/api/v2/barong/dev/outbox?to=${encodeURIComponent(to)}&limit=1`);
  const [mail] = (await res.json()) as OutboxMessage[];
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The link in a mail's text. */
const linkIn = (mail: OutboxMessage) => /https?:\/\/\S+/.exec(mail.body)?.[0] ?? '';

const dev = (path: string, body: unknown) =>
  fetch(`${base}/api/v2/dev${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The btc account of a balances answer. */
const btcAccount = (answer: { data: unknown }) =>
  (answer.data as { currency: string; balance: string; deposit_address?: { address: string } | null }[]).find(
    (a) => a.currency === 'btc',
  );

/** Registers through BaseApp's calls and follows the mailed confirmation link in the browser. */
async function confirmedAccount(page: Page, email: string) {
  const signUp = await baseapp(page, 'signUp', email, PASSWORD);
  expect(signUp.status, JSON.stringify(signUp.data)).toBe(201);
  expect(signUp.data).toMatchObject({ email, state: 'pending', level: 0 });
  const link = linkIn(await lastMail(email));
  expect(link).toContain(`${base}/accounts/confirmation?confirmation_token=`);
  await page.goto(link);
  await page.locator('body[data-confirmed="201"]').waitFor();
}

describe("BaseApp 2.6's flows (BASEAPP_COMPAT)", () => {
  it('sign-up, confirmation, login, deposit address, beneficiaries, a withdrawal and a removal', async () => {
    const { context, page } = await openPage(browser, { baseUrl: base });
    await serveBaseApp(context, base);
    await page.goto('/baseapp/');
    const email = `baseapp${Date.now()}@example.com`;
    await confirmedAccount(page, email);

    // The login without two-factor: the password, then BaseApp's 2FA box takes the mailed 6-digit code.
    const first = await baseapp(page, 'signIn', email, PASSWORD);
    expect(first.status).toBe(401);
    expect(first.data).toMatchObject({
      errors: ['identity.session.missing_otp'],
      code_length: 6,
      code_sent: true,
    });
    const code = (await lastMail(email)).secret ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const signedIn = await baseapp(page, 'signIn', email, PASSWORD, code);
    expect(signedIn.status, JSON.stringify(signedIn.data)).toBe(200);
    expect(signedIn.data).toMatchObject({ email, state: 'active', level: 1, otp: false });
    expect(await page.evaluate(() => localStorage.getItem('csrfToken'))).toBeTruthy();

    // Withdrawing needs a verified identity (its own flow: arranged here) and two-factor, set up as BaseApp does.
    await db.query('update users set level = 3 where email = $1', [email]);
    const qr = await baseapp(page, 'generateQr');
    expect(qr.status).toBe(201);
    const secret = new URL((qr.data as { data: { url: string } }).data.url).searchParams.get('secret') ?? '';
    const totp = totpCodes(secret, base);
    expect((await baseapp(page, 'enable2fa', await totp())).status).toBe(201);

    // The deposit address stays in the balances BaseApp refreshes every few seconds (the server's clock moves those
    // seconds between the refreshes instead of the test waiting them out).
    const address = await baseapp(page, 'depositAddress', 'btc');
    expect(address.status).toBe(200);
    const depositAddress = (address.data as { address: string }).address;
    for (let refresh = 0; refresh < 3; refresh++) {
      if (refresh > 0) await advanceServerClock(3000, base);
      const balances = await baseapp(page, 'balances');
      expect(btcAccount(balances)?.deposit_address?.address, `refresh ${refresh}`).toBe(depositAddress);
    }

    // Funds arrive on the simulated chain.
    const paid = await dev('/faucet', {
      blockchain_key: 'btc-sim',
      currency: 'btc',
      address: depositAddress,
      amount: '0.01',
    });
    expect(paid.status).toBe(201);
    expect((await dev('/mine', { blockchain_key: 'btc-sim', blocks: 40 })).status).toBe(200);
    await expect.poll(async () => btcAccount(await baseapp(page, 'balances'))?.balance, POLL).toBe('0.01');

    // A beneficiary, activated with the mailed pin; the list per currency, as WalletsScreen asks for it.
    const target = encodeP2wpkhAddress('regtest', randomBytes(20));
    const created = await baseapp(page, 'createBeneficiary', 'btc', 'Cold wallet', target);
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const id = (created.data as { id: number }).id;
    const pin = (await lastMail(email)).secret;
    const activated = await baseapp(page, 'activateBeneficiary', id, pin);
    expect(activated.status).toBe(200);
    expect(activated.data).toMatchObject({ state: 'active', currency: 'btc', blockchain_key: 'btc-sim' });
    const ids = async (currency: string) =>
      ((await baseapp(page, 'beneficiaries', currency)).data as { id: number }[]).map((b) => b.id);
    expect(await ids('btc')).toEqual([id]);
    expect(await ids('eth')).toEqual([]);

    // The withdrawal names no network: the beneficiary's is taken.
    const withdrawal = await baseapp(page, 'withdraw', 'btc', '0.002', await totp(), id);
    expect(withdrawal.status, JSON.stringify(withdrawal.data)).toBe(201);
    expect(withdrawal.data).toMatchObject({
      currency: 'btc',
      blockchain_key: 'btc-sim',
      amount: '0.002',
      rid: target,
    });

    // The delete sends no code: the owner confirms by the mailed link, opened in the browser.
    const asked = await baseapp(page, 'deleteBeneficiary', id);
    expect(asked.status).toBe(202);
    expect(await ids('btc')).toEqual([id]);
    const removal = linkIn(await lastMail(email));
    expect(removal).toContain(`${base}/api/v2/peatio/public/beneficiaries/removal?token=`);
    await page.goto(removal);
    await page.getByRole('button', { name: 'Remove address' }).click();
    await page.getByRole('heading', { name: 'Withdrawal address removed' }).waitFor();
    await page.goto('/baseapp/');
    expect(await ids('btc')).toEqual([]);
    await context.close();
  });

  it("lets the spec's own web app confirm such an account and log in with the 6-digit code", async () => {
    const { context, page } = await openPage(browser, { baseUrl: base });
    const email = `webapp${Date.now()}@example.com`;
    const signUp = await fetch(`${base}/api/v2/barong/identity/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signUp.status).toBe(201);
    // The mailed link opens our web app's confirmation screen (the same route as BaseApp's), then the login.
    await page.goto(linkIn(await lastMail(email)));
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Your account is confirmed. Please login.').waitFor();
    await page.getByLabel('Email or phone number').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    const box = page.getByTestId('login-code');
    await box.waitFor();
    expect(await box.getAttribute('maxlength')).toBe('6');
    await box.fill((await lastMail(email)).secret ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await context.close();
  });
});
