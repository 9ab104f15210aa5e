import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, blocking, describeViolations } from './axe.ts';
import { focusEscape, waitForFocus } from './keyboard.ts';

/** The open dialog on top (Mantine portals each modal to the end of the body). */
export const topDialog = (page: Page): Locator => page.locator('[role="dialog"]').last();

/**
 * Switches the colour scheme of a loaded page as another tab of the app would: the theme is stored, and the
 * storage event that the app's colour-scheme manager listens to is dispatched, so an open dialog stays open.
 */
export async function switchTheme(page: Page, theme: 'dark' | 'light'): Promise<void> {
  await page.evaluate((value) => {
    localStorage.setItem('ThemeMode', value);
    window.dispatchEvent(
      new StorageEvent('storage', { key: 'ThemeMode', newValue: value, storageArea: localStorage }),
    );
  }, theme);
  await page.waitForFunction(
    (value) => document.documentElement.getAttribute('data-mantine-color-scheme') === value,
    theme,
  );
  // Colours change over the next frames (even reduced motion keeps a 0.01 ms transition): wait for the body's
  // text colour and for every transition to end.
  await page.waitForFunction(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--mantine-color-text)';
    document.body.append(probe);
    const text = getComputedStyle(probe).color;
    probe.remove();
    return (
      getComputedStyle(document.body).color === text &&
      !document.getAnimations().some((a) => a instanceof CSSTransition)
    );
  });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * What is wrong with the open dialog `dialog` (issue #19): no `aria-modal`, no name, the focus not inside it or
 * not kept inside over a few Tab presses, and axe-core's serious or critical violations in the dark and the light
 * theme. Empty when it is accessible. The page is left in the theme it had, with the focus inside the dialog.
 */
export async function dialogProblems(page: Page, dialog: Locator = topDialog(page)): Promise<string[]> {
  await dialog.waitFor();
  const problems: string[] = [];
  // A dialog is open once its title is in and the focus has moved into it, a few frames after its element appears
  // (on a loaded machine the first check came before them): up to 2 s for both, then what it has is judged.
  const facts = await dialog.evaluate(async (el) => {
    const read = () => {
      const ids = el.getAttribute('aria-labelledby')?.split(/\s+/).filter(Boolean) ?? [];
      const labelled = ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ');
      return {
        modal: el.getAttribute('aria-modal'),
        name: (el.getAttribute('aria-label') ?? labelled).trim(),
        focused: el.contains(document.activeElement),
      };
    };
    const until = performance.now() + 2_000;
    let seen = read();
    while (!(seen.name && seen.focused) && performance.now() < until) {
      await new Promise((next) => setTimeout(next, 20));
      seen = read();
    }
    return seen;
  });
  if (facts.modal !== 'true') problems.push('the dialog has no aria-modal="true"');
  if (!facts.name) problems.push('the dialog has no accessible name');
  if (!facts.focused) problems.push('the focus is not inside the dialog when it opens');
  const escaped = await focusEscape(page, dialog, 6);
  if (escaped) problems.push(escaped);
  const theme = (await page.evaluate(() =>
    document.documentElement.getAttribute('data-mantine-color-scheme'),
  )) as 'dark' | 'light';
  for (const scheme of theme === 'light' ? (['light', 'dark'] as const) : (['dark', 'light'] as const)) {
    await switchTheme(page, scheme);
    const found = blocking(await axeViolations(page));
    if (found.length > 0) problems.push(`${scheme} theme:\n${describeViolations(found)}`);
  }
  await switchTheme(page, theme);
  return problems;
}

/** Fails with the open dialog's accessibility problems, if any. */
export async function expectAccessibleDialog(page: Page): Promise<void> {
  const problems = await dialogProblems(page);
  expect(problems, problems.join('\n')).toEqual([]);
}

/** Escape closes the dialog on top, and the focus goes back to `opener`. */
export async function closeWithEscape(page: Page, opener: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await topDialog(page).waitFor({ state: 'detached' });
  await waitForFocus(page, opener);
}
