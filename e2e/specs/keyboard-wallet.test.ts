import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { expectAccessibleDialog, topDialog } from '../support/dialogs.ts';
import { chooseWithArrows, hasFocus, tabTo, waitForFocus } from '../support/keyboard.ts';
import { bobBidsForTrx, depositFromFaucet, getFromPage, withdrawReady } from '../support/wallet.ts';

/**
 * Keyboard-only wallet flows (issue #19, WCAG 2.1.1, 2.4.3, 2.4.7): deposit (coin and network, copy the address,
 * its QR dialog), withdraw to a saved address (the address book and the confirmation dialog), and swap. Tab and
 * Shift+Tab to move, typing, Enter, Space and the arrow keys; each dialog checked open and its focus given back.
 */

const POLL = { timeout: 20_000, interval: 100 };

const spec = browserAndDatabase();

describe('keyboard only: wallet', () => {
  it('deposits (coin, network, copy, QR), withdraws to a saved address after the confirmation, and swaps', async () => {
    const { email } = await activeAccount('kwallet');
    const { context, page } = await openPage(spec.browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await apiLogin(page, email);
    const nextCode = await withdrawReady(page, spec.db, email);
    await depositFromFaucet(page, 'trx', 'tron-sim', '100');

    // Bob, a demo user, receives the withdrawal at his tron address and bids for TRX, so the swap has a price.
    const bob = await bobBidsForTrx(spec.browser);
    const { address: bobAddress } = await getFromPage<{ address: string }>(
      bob.page,
      '/api/v2/peatio/account/deposit_address/trx?blockchain_key=tron-sim',
    );

    // Deposit: USDT on TRON with the arrow keys, then Copy puts the address on the clipboard.
    await page.goto('/deposit_withdraw');
    const coin = page.getByTestId('dw-coin');
    await expect.poll(() => coin.inputValue(), POLL).toMatch(/^TRX/);
    await tabTo(page, coin, { max: 80 });
    await chooseWithArrows(page, 'USDT — Tether USD');
    await expect.poll(() => coin.inputValue(), POLL).toBe('USDT — Tether USD');
    await tabTo(page, page.getByTestId('dw-network'));
    await chooseWithArrows(page, 'TRON (TRC20)');
    expect(await page.getByTestId('dw-network').inputValue()).toBe('TRON (TRC20)');
    await page.getByText('Your USDT deposit address on tron').waitFor(POLL);
    const address = page.getByTestId('deposit-address');
    await expect.poll(async () => ((await address.textContent()) ?? '').length, POLL).toBeGreaterThan(10);
    const copy = page.getByRole('button', { name: 'Copy', exact: true });
    await tabTo(page, copy);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await address.textContent());
    const qrOpen = page.getByTestId('deposit-qr-open');
    await tabTo(page, qrOpen);
    await page.keyboard.press('Enter');
    await page.getByTestId('deposit-qr').waitFor(POLL);
    await expectAccessibleDialog(page);
    await page.keyboard.press('Escape');
    await topDialog(page).waitFor({ state: 'detached' });
    await waitForFocus(page, qrOpen);

    // Withdraw: back to TRX, the Withdraw tab with the arrow key.
    await tabTo(page, coin, { backwards: true });
    await chooseWithArrows(page, 'TRX — TRON');
    await tabTo(page, page.getByTestId('tab-deposit'));
    await page.keyboard.press('ArrowRight');
    expect(await hasFocus(page.getByTestId('tab-withdraw'))).toBe(true);
    await expect
      .poll(() => page.getByTestId('tab-withdraw').getAttribute('aria-selected'), POLL)
      .toBe('true');

    // The address book: add Bob's address, activate it with the emailed pin; Escape gives the focus back.
    const manage = page.getByTestId('manage-addresses');
    await tabTo(page, manage);
    await page.keyboard.press('Enter');
    await page.getByTestId('beneficiary-name').waitFor();
    await expectAccessibleDialog(page);
    await tabTo(page, page.getByTestId('beneficiary-name'));
    await page.keyboard.type('Bob');
    await tabTo(page, page.getByTestId('beneficiary-address'));
    await page.keyboard.type(bobAddress);
    await tabTo(page, page.getByTestId('beneficiary-owner'));
    await page.keyboard.type('Bob Example');
    await tabTo(page, page.getByTestId('beneficiary-self-hosted'));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByTestId('beneficiary-add'));
    await page.keyboard.press('Enter');
    const pin = page.getByTestId('beneficiary-pin');
    await pin.waitFor(POLL);
    await waitForFocus(page, pin);
    await expectAccessibleDialog(page);
    await tabTo(page, pin);
    await page.keyboard.type(await latestCode(email));
    await page.keyboard.press('Enter');
    await page.getByText('Address activated').first().waitFor();
    await page.keyboard.press('Escape');
    await topDialog(page).waitFor({ state: 'detached' });
    await waitForFocus(page, manage);

    // The amount from the slider's arrow key (25 % of 100 TRX), then the confirmation dialog takes the code.
    await tabTo(page, page.getByTestId('withdraw-beneficiary'), { backwards: true });
    await chooseWithArrows(page, `Bob — ${bobAddress}`);
    await tabTo(page, page.getByRole('slider'));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('withdraw-amount').inputValue(), POLL).toBe('25');
    const submit = page.getByTestId('withdraw-submit');
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    await waitForFocus(page, page.getByTestId('withdraw-otp'));
    await expectAccessibleDialog(page);
    await tabTo(page, page.getByTestId('withdraw-otp'));
    await page.keyboard.type(await nextCode());
    await page.keyboard.press('Enter');
    await page.getByText('Withdrawal requested successfully').first().waitFor();
    await topDialog(page).waitFor({ state: 'detached' });
    await waitForFocus(page, submit);
    // Its row is in the history (whatever review it may wait for).
    await expect
      .poll(() => page.getByTestId('recent-history').getByTestId('history-row').count(), POLL)
      .toBe(1);

    // Swap 10 TRX to USDT at Bob's bid; the history tab with the arrow key shows it.
    await page.goto('/swap');
    await tabTo(page, page.getByTestId('swap-from'), { max: 80 });
    await chooseWithArrows(page, 'TRX');
    await tabTo(page, page.getByTestId('swap-to'));
    await chooseWithArrows(page, 'USDT');
    await tabTo(page, page.getByTestId('swap-amount'));
    await page.keyboard.type('10');
    await page.getByTestId('swap-quote').waitFor(POLL);
    await expect.poll(() => page.getByTestId('swap-submit').isEnabled(), POLL).toBe(true);
    await tabTo(page, page.getByTestId('swap-submit'));
    await page.keyboard.press('Enter');
    await page.getByText('Swap completed successfully').first().waitFor();
    await tabTo(page, page.getByRole('tab', { name: 'Swap', exact: true }), { backwards: true });
    await page.keyboard.press('ArrowRight');
    expect(await hasFocus(page.getByTestId('tab-swap-history'))).toBe(true);
    await expect.poll(() => page.getByTestId('swap-row').count(), POLL).toBe(1);
    expect(await page.getByTestId('swap-row').textContent()).toContain('TRX');

    await context.close();
  }, 240_000);
});
