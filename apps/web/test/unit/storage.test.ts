import { STORAGE_KEYS } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { clearBrowserStorage, KEPT_AFTER_LOGOUT, KEPT_AFTER_VERIFICATION } from '../../src/api/storage.ts';

/** A Storage held in a Map (the unit tests run without a browser). */
function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

const filled = () =>
  memoryStorage({
    [STORAGE_KEYS.theme]: 'light',
    [STORAGE_KEYS.privacyConsent]: 'accepted',
    [STORAGE_KEYS.favouriteMarkets]: '["ethbtc"]',
    [STORAGE_KEYS.csrfToken]: 'token',
    other: 'x',
  });

describe("the spec's storage clears (docs/accounts.md#states; issue 32, accounts items 3 and 10)", () => {
  it('account verification keeps the theme and the privacy consent, nothing else', () => {
    const local = filled();
    const session = memoryStorage({ s: '1' });
    clearBrowserStorage(KEPT_AFTER_VERIFICATION, local, session);
    expect(local.getItem(STORAGE_KEYS.privacyConsent)).toBe('accepted');
    expect(local.getItem(STORAGE_KEYS.theme)).toBe('light');
    expect(local.length).toBe(2);
    expect(session.length).toBe(0);
  });

  it('logout clears the privacy consent, as the spec says, and keeps the theme and favourite markets', () => {
    const local = filled();
    const session = memoryStorage({ s: '1' });
    clearBrowserStorage(KEPT_AFTER_LOGOUT, local, session);
    expect(local.getItem(STORAGE_KEYS.privacyConsent)).toBeNull();
    expect(local.getItem(STORAGE_KEYS.csrfToken)).toBeNull();
    expect(local.getItem(STORAGE_KEYS.theme)).toBe('light');
    expect(local.getItem(STORAGE_KEYS.favouriteMarkets)).toBe('["ethbtc"]');
    expect(session.length).toBe(0);
  });

  it('keeps nothing that was not there', () => {
    const local = memoryStorage({ other: 'x' });
    clearBrowserStorage(KEPT_AFTER_LOGOUT, local, memoryStorage());
    expect(local.length).toBe(0);
  });
});
