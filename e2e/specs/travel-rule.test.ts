import { randomBytes } from 'node:crypto';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { withdrawReady } from '../support/wallet.ts';

const POLL = { timeout: 20_000 };

const spec = browserAndDatabase();

describe('travel rule in the address book', () => {
  it("collects the owner and where the address is held, and proves a self-hosted address with the wallet's signature", async () => {
    const { email } = await activeAccount('travelrule');
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, email);
    await withdrawReady(page, spec.db, email);
    // The customer's own TRON wallet: TronWeb signs as a wallet app would.
    const key = randomBytes(32).toString('hex');
    const address = TronWeb.address.fromPrivateKey(key) as string;
    const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9' });

    await page.goto('/deposit_withdraw');
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^TRX/);
    await page.getByTestId('tab-withdraw').click();
    await page.getByTestId('manage-addresses').click();
    await page.getByTestId('beneficiary-name').fill('My wallet');
    await page.getByTestId('beneficiary-address').fill(address);
    await page.getByTestId('beneficiary-owner').fill('Tara Rule');
    // Where it is held is required by the form.
    await page.getByTestId('beneficiary-add').click();
    await page.getByText('Say whether the address is at an exchange or in your own wallet').waitFor();
    await page.getByTestId('beneficiary-self-hosted').check();
    await page.getByTestId('beneficiary-add').click();
    await page.getByTestId('beneficiary-pin').waitFor();
    await page.getByTestId('beneficiary-pin').fill(await latestCode(email));
    await page.getByTestId('beneficiary-activate-confirm').click();
    await page.getByText('Address activated').waitFor();
    await page.getByText('Tara Rule · In my own wallet').waitFor();

    // A signature by another key is refused with its message; the wallet's own one proves the address.
    await page.getByTestId('beneficiary-prove').click();
    const message = (await page.getByTestId('ownership-message').textContent()) ?? '';
    expect(message).toContain(address);
    const otherKey = randomBytes(32).toString('hex');
    await page.getByTestId('ownership-signature').fill(await tronWeb.trx.signMessageV2(message, otherKey));
    await page.getByTestId('ownership-submit').click();
    await page.getByText('The signature does not match this address and message').waitFor();
    await page.getByTestId('ownership-signature').fill(await tronWeb.trx.signMessageV2(message, key));
    await page.getByTestId('ownership-submit').click();
    await page.getByTestId('beneficiary-proved').waitFor();
    expect(await page.getByTestId('beneficiary-prove').count()).toBe(0);
    await context.close();
  });
});
