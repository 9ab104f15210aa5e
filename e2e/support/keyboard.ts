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
 * Whether the focused element shows that it has the focus (WCAG 2.4.7): it matches `:focus-visible` and draws an
 * outline or a shadow, as Mantine's focus ring and the browser's own do; a Mantine text field instead turns its
 * border (or its box's, for a password field) the primary colour, or outlines it when it shows an error, and a
 * Mantine switch outlines the track next to its hidden input.
 */
export function focusIndicatorShown(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || !el.matches(':focus-visible')) return false;
    const drawn = (node: Element | null) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
      return outline || (style.boxShadow !== '' && style.boxShadow !== 'none');
    };
    // The field itself, or the box around it (a password field's input sits inside the bordered box).
    const box = el.closest('.mantine-Input-input') ?? el;
    if (drawn(el) || drawn(el.nextElementSibling) || drawn(box)) return true;
    const probe = document.createElement('span');
    probe.style.color = 'var(--mantine-primary-color-filled)';
    document.body.append(probe);
    const primary = getComputedStyle(probe).color;
    probe.remove();
    return getComputedStyle(box).borderTopColor === primary;
  });
}

/** The focused element's outline, shadow and border, for failure messages. */
function focusStyle(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return 'nothing focused';
    const s = getComputedStyle(el);
    const focusVisible = el.matches(':focus-visible');
    return `focus-visible ${focusVisible}, outline ${s.outline}, box-shadow ${s.boxShadow}, border ${s.borderTopColor}, class ${el.className}`;
  });
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, as a keyboard-only user moves through
 * the page; fails when it is not reached within `max` presses (not focusable, or out of the tab order), or when
 * it is reached but shows no focus indicator.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { max?: number; backwards?: boolean } = {},
): Promise<void> {
  const max = options.max ?? 60;
  // Attached is enough: some controls keep their input visually hidden (a switch draws its track instead).
  await target.first().waitFor({ state: 'attached' });
  for (let presses = 0; presses <= max; presses++) {
    if (await hasFocus(target)) {
      // A focus style may come with a short transition (a Mantine field's border takes 100 ms).
      const until = Date.now() + 1000;
      while (!(await focusIndicatorShown(page)) && Date.now() < until) await page.waitForTimeout(50);
      if (!(await focusIndicatorShown(page)))
        throw new Error(
          `the focus on ${await focusedElement(page)} is not visible: ${await focusStyle(page)}`,
        );
      return;
    }
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`not reached with ${max} Tab presses; the focus is on ${await focusedElement(page)}`);
}

/**
 * Presses Tab and Shift+Tab `presses` times in all and reports where the focus went if it ever left `dialog`
 * (a dialog must trap the focus, WCAG 2.4.3); undefined when it stayed inside throughout.
 */
export async function focusEscape(page: Page, dialog: Locator, presses: number): Promise<string | undefined> {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    if (!(await focusWithin(dialog))) return `focus left the dialog for ${await focusedElement(page)}`;
  }
  return undefined;
}

/**
 * Picks `option` in the focused Mantine select from the keyboard: ArrowDown opens the list and moves through it,
 * Enter takes the highlighted option. Fails when the option is not met within `max` presses.
 */
export async function chooseWithArrows(page: Page, option: string, max = 40): Promise<void> {
  let seen: string | null = null;
  for (let presses = 0; presses <= max; presses++) {
    await page.keyboard.press('ArrowDown');
    seen = await highlightedOption(page);
    if (seen === option) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(
    `option ${option} not reached with ${max} ArrowDown presses; the last highlighted: ${seen}`,
  );
}

/**
 * The option highlighted in the list of the focused field (the list its aria-controls names), or null. Only that
 * list counts: another select's list may still be in the page while it closes, with its own option highlighted.
 */
function highlightedOption(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const list = document.activeElement?.getAttribute('aria-controls');
    const listbox = list ? document.getElementById(list) : null;
    const option = listbox?.querySelector('[role="option"][data-combobox-selected]');
    return option?.textContent?.trim() ?? null;
  });
}

/**
 * Waits until `target` has the focus (a dialog that opened, or one that closed and gave the focus back); fails
 * saying where the focus is instead.
 */
export async function waitForFocus(page: Page, target: Locator, timeout = 10_000): Promise<void> {
  const until = Date.now() + timeout;
  while (!(await hasFocus(target))) {
    if (Date.now() > until)
      throw new Error(`the focus is on ${await focusedElement(page)}, not on the expected element`);
    await page.waitForTimeout(100);
  }
}

/** Presses an arrow key until `target` has the focus (a menu's items); fails after `max` presses. */
export async function arrowTo(page: Page, target: Locator, key = 'ArrowDown', max = 20): Promise<void> {
  await target.first().waitFor({ state: 'attached' });
  for (let presses = 0; presses <= max; presses++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`not reached with ${max} ${key} presses; the focus is on ${await focusedElement(page)}`);
}
