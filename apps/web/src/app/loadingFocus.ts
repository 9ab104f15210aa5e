import { useEffect } from 'react';

/**
 * Keeps the focus on a button that is busy with its request (WCAG 2.4.3). Mantine disables a Button while it is
 * `loading` (and marks it `data-loading`); a disabled element cannot hold the focus, so it falls to the body and a
 * keyboard user would start again from the top of the page. A button that had the focus when it went busy gets it
 * back once it is enabled again, unless the focus has gone somewhere meanwhile (a dialog that opened, a Tab).
 */
export function useLoadingFocusReturn(): void {
  useEffect(() => {
    let focused: Element | null = null;
    let busy: HTMLElement | null = null;
    const nowhere = () => document.activeElement === null || document.activeElement === document.body;
    const remember = (event: FocusEvent) => {
      focused = event.target instanceof Element ? event.target : null;
      busy = null;
    };
    const observer = new MutationObserver((mutations) => {
      for (const { target } of mutations) {
        if (
          target === focused &&
          target instanceof HTMLButtonElement &&
          target.disabled &&
          target.hasAttribute('data-loading') &&
          (document.activeElement === target || nowhere())
        )
          busy = target;
      }
      if (!busy || (busy.isConnected && busy instanceof HTMLButtonElement && busy.disabled)) return;
      const button = busy;
      busy = null;
      if (button.isConnected && nowhere()) button.focus({ preventScroll: true });
    });
    document.addEventListener('focusin', remember);
    observer.observe(document.body, {
      attributes: true,
      attributeFilter: ['disabled', 'data-loading'],
      subtree: true,
    });
    return () => {
      document.removeEventListener('focusin', remember);
      observer.disconnect();
    };
  }, []);
}
