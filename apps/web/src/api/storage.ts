import { STORAGE_KEYS } from '@exchange/shared';

/**
 * The spec's two clears of the browser's storage (docs/accounts.md#states): account verification and logout both
 * "clear local and session storage". What each keeps, and why:
 *
 * - the theme, after both: a setting of the device, not of a session;
 * - the privacy consent (docs/accounts.md#public-pages: the visitor "has read the policy and agrees to be bound"), after
 *   verification only. Verification happens in the middle of the same visitor's sign-up, right before they log
 *   in, so the pop-up must not come back over the login form (issue 32, accounts item 3). Logout follows the
 *   spec's wording and clears it (item 10): whoever uses this browser next has not agreed yet and is asked;
 * - the favourite markets, after logout: kept locally and synced with the account (docs/trading.md#data).
 */
export const KEPT_AFTER_VERIFICATION = [STORAGE_KEYS.theme, STORAGE_KEYS.privacyConsent] as const;
export const KEPT_AFTER_LOGOUT = [STORAGE_KEYS.theme, STORAGE_KEYS.favouriteMarkets] as const;

/** Announced on `window` after a clear, so what reads the storage once (the consent pop-up) reads it again. */
export const STORAGE_CLEARED_EVENT = 'exchange:storage-cleared';

/** Clears local and session storage except the `keep` keys of local storage. */
export function clearBrowserStorage(
  keep: readonly string[],
  local: Storage = localStorage,
  session: Storage = sessionStorage,
): void {
  const kept = keep.flatMap((key) => {
    const value = local.getItem(key);
    return value === null ? [] : [[key, value] as const];
  });
  local.clear();
  session.clear();
  for (const [key, value] of kept) local.setItem(key, value);
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(STORAGE_CLEARED_EVENT));
}
