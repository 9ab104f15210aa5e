import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { orderedCard } from '../support/card.ts';
import { operator } from '../support/cli.ts';
import { closeWithEscape, expectAccessibleDialog, topDialog } from '../support/dialogs.ts';
import { arrowTo, tabTo, waitForFocus } from '../support/keyboard.ts';

/**
 * Keyboard-only card screens (issue #19, WCAG 2.1.1, 2.4.3, 2.4.7): the landing's dialog, the dashboard (show the
 * number, activate, the actions menu with the arrow keys, block and unblock, limits, top-up) and the statement,
 * whose rows open their details with Enter and with Space (without scrolling the page). Each dialog is checked
 * open and gives the focus back on close.
 */

const POLL = { timeout: 20_000, interval: 100 };

const spec = browserAndDatabase();

/** Opens the card actions menu with Enter and takes one of its items with the arrow keys and Enter. */
async function cardAction(page: Page, item: string): Promise<void> {
  const menu = page.getByTestId('card-actions');
  await tabTo(page, menu);
  await page.keyboard.press('Enter');
  await arrowTo(page, page.getByTestId(item));
  await page.keyboard.press('Enter');
  await topDialog(page).waitFor();
}

/** Blocks or unblocks the card from its dialog: the card on screen is chosen already, Confirm with Enter. */
async function confirmCardAction(page: Page, kind: 'block' | 'unblock', masked: string): Promise<void> {
  await cardAction(page, `card-action-${kind}`);
  const modal = page.getByTestId(`card-action-modal-${kind}`);
  if (kind === 'block') await expectAccessibleDialog(page);
  expect(await modal.getByTestId('card-action-card').inputValue()).toBe(masked);
  await tabTo(page, modal.getByTestId('card-action-confirm'));
  await page.keyboard.press('Enter');
  await topDialog(page).waitFor({ state: 'detached' });
  await waitForFocus(page, page.getByTestId('card-actions'));
}

describe('keyboard only: card', () => {
  it('landing dialogs, activation, actions, limits, top-up and the statement rows', async () => {
    const { email } = await activeAccount('kcard');
    const { context, page } = await openPage(spec.browser);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await apiLogin(page, email);
    await spec.db.query('update users set level = 3 where email = $1', [email]);

    // The landing: the Trading Rules dialog, then Get started opens the wizard.
    await page.goto('/card');
    await page.getByTestId('card-landing').waitFor(POLL);
    const rules = page.getByTestId('card-rules');
    await tabTo(page, rules, { max: 80 });
    await page.keyboard.press('Enter');
    await page.getByTestId('card-rules-body').waitFor();
    await expectAccessibleDialog(page);
    await closeWithEscape(page, rules);
    const start = page.getByTestId('card-get-started');
    await tabTo(page, start, { backwards: true });
    await page.keyboard.press('Enter');
    await page.getByTestId('card-wizard-profile').waitFor(POLL);

    // A paid card, delivered: the dashboard shows it Not active.
    const masked = await orderedCard(page, email);
    await page.goto('/card');
    await page.getByTestId('card-dashboard').waitFor(POLL);
    const status = () => page.getByTestId('card-wallet-status').textContent();
    await expect.poll(status, POLL).toBe('Not active');

    // Show number (a toggle button), then type it into the activation form and press Enter.
    const show = page.getByTestId('card-show-number');
    await tabTo(page, show, { max: 80 });
    await page.keyboard.press('Enter');
    await expect.poll(() => show.getAttribute('aria-pressed'), POLL).toBe('true');
    await expect.poll(() => page.getByTestId('card-number').textContent(), POLL).toMatch(/^[\d ]{19}$/);
    const full = ((await page.getByTestId('card-number').textContent()) ?? '').replace(/\s/g, '');
    await tabTo(page, page.getByTestId('card-activate-number'));
    await page.keyboard.type(full);
    await page.keyboard.press('Enter');
    await expect.poll(status, POLL).toBe('Active');

    // The actions menu with the arrow keys: block, unblock, and the card limits dialog.
    await confirmCardAction(page, 'block', masked);
    await expect.poll(status, POLL).toBe('Blocked');
    await confirmCardAction(page, 'unblock', masked);
    await expect.poll(status, POLL).toBe('Active');
    await cardAction(page, 'card-action-limits');
    await page.getByTestId('card-limits').waitFor();
    await expectAccessibleDialog(page);
    await closeWithEscape(page, page.getByTestId('card-actions'));

    // Top up 20 USDT: the amount typed, Enter submits, and the focus is back on Top up.
    const topup = page.getByTestId('card-topup-open');
    await tabTo(page, topup);
    await page.keyboard.press('Enter');
    await page.getByTestId('card-topup-modal').waitFor();
    await tabTo(page, page.getByTestId('card-topup-amount'));
    await page.keyboard.type('20');
    await expect.poll(() => page.getByTestId('card-topup-eur').textContent(), POLL).toMatch(/\d/);
    await expectAccessibleDialog(page);
    await tabTo(page, page.getByTestId('card-topup-submit'));
    await page.keyboard.press('Enter');
    await topDialog(page).waitFor({ state: 'detached' });
    await waitForFocus(page, topup);

    // A purchase on the simulated card network (settled, or declined while the top-up is pending): a statement row.
    // (A decline makes the command fail, with the same answer.)
    const spent = await operator('card', 'spend', full, '5.00', 'Cafe Central Wien').catch(String);
    expect(spent).toMatch(/"trade_id":"txn_\w+"/);

    // The statement on a short window: the purchase's row opens its details with Space, and the page stays where
    // it is; Escape gives the focus back to the row, and Enter opens it too.
    await page.setViewportSize({ width: 1280, height: 480 });
    await page.goto('/view_statement');
    await page.getByTestId('statement-form').waitFor();
    await expect.poll(() => page.getByTestId('statement-card').inputValue(), POLL).toBe(masked);
    const rows = page.getByTestId('statement-row');
    const view = page.getByTestId('statement-submit');
    // VIEW DETAILED STATEMENT with Enter until the row is there: the button is busy while it loads, and keeps the
    // focus for the next press.
    await tabTo(page, view, { max: 80 });
    await expect
      .poll(
        async () => {
          await page.keyboard.press('Enter');
          await page.getByTestId('statement-table').waitFor();
          await expect.poll(() => view.getAttribute('data-loading'), POLL).toBeNull();
          await waitForFocus(page, view);
          return rows.count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    const row = rows.first();
    await tabTo(page, row);
    const scrolled = await page.evaluate(() => window.scrollY);
    // Whether the row's handler kept Space from its default, scrolling the page (read after the handlers ran; here
    // the dialog's scroll lock may hide the scroll itself).
    await page.evaluate(() => {
      window.addEventListener('keydown', (e) => {
        if (e.key === ' ') document.body.dataset.spaceDefaultPrevented = String(e.defaultPrevented);
      });
    });
    await page.keyboard.press('Space');
    await page.getByTestId('statement-detail').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(await page.evaluate(() => document.body.dataset.spaceDefaultPrevented)).toBe('true');
    await expectAccessibleDialog(page);
    await closeWithEscape(page, row);
    await page.keyboard.press('Enter');
    await page.getByTestId('statement-detail').waitFor();
    await tabTo(page, page.getByTestId('statement-detail-close'));
    await page.keyboard.press('Enter');
    await topDialog(page).waitFor({ state: 'detached' });
    await waitForFocus(page, row);
    await context.close();
  }, 240_000);
});
