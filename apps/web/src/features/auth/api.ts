import { STORAGE_KEYS } from '@exchange/shared';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { clearBrowserStorage, KEPT_AFTER_VERIFICATION } from '../../api/storage.ts';
import { CURRENT_USER_KEY, markSignedIn, type User } from '../../api/user.ts';

/** Where a login identifier points: the session type and the email or full phone number. */
export interface LoginCredentials {
  session_type: 'email' | 'phone';
  email?: string;
  phone_number?: string;
  password: string;
}

/** The 200 answer for an account that still has to verify email and phone: no session. */
export interface PendingLogin {
  email: string;
  phones: { number: string }[];
  level: number;
  state: string;
  /** Proof for Change number on the verify-account screen (it lasts an hour). */
  registration_token?: string;
}

/** `POST /identity/users`: the registered email and full phone number, and the registration token. */
export interface RegisterResult {
  email: string;
  phone_number: string;
  registration_token: string;
}

/** POSTs to the identity service through the shared client (encrypted body; error details kept). */
export function identityPost<T>(path: string, body: unknown): Promise<T> {
  return api<T>('barong', path, { method: 'POST', body });
}

/** Login, either step: `POST /identity/sessions`. */
export function createSession(
  credentials: LoginCredentials,
  second: { otp_code?: string; code?: string } = {},
): Promise<User | PendingLogin> {
  return identityPost('/identity/sessions', {
    ...credentials,
    ...second,
    authentication_state: 'web',
  });
}

/** Sends the 5-digit login code to the account's email or phone. */
export function resendLoginCode(credentials: LoginCredentials): Promise<unknown> {
  return identityPost('/identity/sessions/resent_otp', credentials);
}

/** A pending account answer (no session yet). */
export function isPending(result: User | PendingLogin): result is PendingLogin {
  return result.state !== 'active' || result.level === 0;
}

/** Keeps the session's CSRF token and the signed-in user after a completed login. */
export function rememberSession(client: QueryClient, user: User): void {
  if (user.csrf_token) localStorage.setItem(STORAGE_KEYS.csrfToken, user.csrf_token);
  markSignedIn();
  client.setQueryData(CURRENT_USER_KEY, user);
}

/** Forgets the local session after the server ended it (password change): user, token, cached data. */
export function forgetSession(client: QueryClient): void {
  localStorage.removeItem(STORAGE_KEYS.csrfToken);
  client.setQueryData(CURRENT_USER_KEY, null);
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== CURRENT_USER_KEY[0] });
}

/** Clears local and session storage after account verification (docs/accounts.md#states), keeping the theme and consent. */
export function clearStorageAfterVerification(): void {
  clearBrowserStorage(KEPT_AFTER_VERIFICATION);
}
