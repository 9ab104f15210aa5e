import { useEffect } from 'react';

/**
 * How many places the focus had outside dialogs are remembered: the opener may be gone (a menu item), and a menu
 * adds one place per item the arrow keys pass.
 */
const HISTORY = 20;

const MODAL = '[role="dialog"][aria-modal="true"]';

/** Whether a removed node was, or held, a modal dialog. */
const heldDialog = (node: Node) =>
  node instanceof Element && (node.matches(MODAL) || node.querySelector(MODAL) !== null);

/**
 * Gives the focus back to where it was before a dialog opened once the dialog leaves the page (WCAG 2.4.3).
 * Mantine returns it only when a modal's `opened` turns false, but most dialogs here are rendered while needed
 * and then unmounted, which drops the focus to the body: the latest element focused outside any dialog that is
 * still on the page gets it back.
 */
export function useDialogFocusReturn(): void {
  useEffect(() => {
    const history: HTMLElement[] = [];
    const remember = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || target.closest(MODAL)) return;
      const known = history.indexOf(target);
      if (known >= 0) history.splice(known, 1);
      history.push(target);
      if (history.length > HISTORY) history.shift();
    };
    const observer = new MutationObserver((mutations) => {
      const active = document.activeElement;
      if (active && active !== document.body) return;
      if (!mutations.some((m) => Array.from(m.removedNodes).some(heldDialog))) return;
      if (document.querySelector(MODAL)) return;
      const back = history.findLast((el) => el.isConnected);
      back?.focus({ preventScroll: true });
    });
    document.addEventListener('focusin', remember);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', remember);
      observer.disconnect();
    };
  }, []);
}
