import type { Locator, Page } from 'playwright-core';

/** Whether the keyboard focus is on `target` (its first match). */
export function hasFocus(target: Locator): Promise<boolean> {
  return target.first().evaluate((el) => el === document.activeElement);
}

/** Whether the keyboard focus is inside `container` (its first match). */
export function focusWithin(container: Locator): Promise<boolean> {
  return container.first().evaluate((el) => el.contains(document.activeElement));
}

/** A short description of the focused element, for failure messages. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return 'nothing';
    const name =
      el.getAttribute('aria-label') ?? el.getAttribute('name') ?? el.textContent?.trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}> ${name ?? ''}`;
  });
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, as a keyboard-only user moves through
 * the page; fails when it is not reached within `max` presses (not focusable, or out of the tab order).
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { max?: number; backwards?: boolean } = {},
): Promise<void> {
  const max = options.max ?? 60;
  await target.first().waitFor();
  for (let presses = 0; presses <= max; presses++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`not reached with ${max} Tab presses; the focus is on ${await focusedElement(page)}`);
}
