import { API, STORAGE_KEYS } from '@exchange/shared';
import type { QueryClient } from '@tanstack/react-query';
import { CURRENT_USER_KEY, type User } from '../../api/user.ts';
import { messageFor, t } from '../../i18n/index.ts';
import { DetailedApiError } from './components/errors.ts';

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
}

/**
 * POSTs to the identity service and keeps the extra fields of an error body (`left`, `otp`), which the
 * login screens need and the generic client drops.
 */
export async function identityPost<T>(path: string, body: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const csrf = localStorage.getItem(STORAGE_KEYS.csrfToken);
  if (csrf) headers['X-CSRF-Token'] = csrf;
  let response: Response;
  try {
    response = await fetch(`${API.barong}${path}`, {
      method: 'POST',
      credentials: 'include',
      headers,
      body: JSON.stringify(body),
    });
  } catch {
    throw new DetailedApiError(500, ['server.error'], t('server.error'), {});
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed as T;
  const { errors: raw, ...details } = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<
    string,
    unknown
  >;
  const errors = Array.isArray(raw) ? raw.filter((e): e is string => typeof e === 'string') : [];
  if (errors.length === 0) errors.push('server.error');
  return Promise.reject(new DetailedApiError(response.status, errors, messageFor(errors[0] ?? ''), details));
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
  client.setQueryData(CURRENT_USER_KEY, user);
}

/** Forgets the local session after the server ended it (password change): user, token, cached data. */
export function forgetSession(client: QueryClient): void {
  localStorage.removeItem(STORAGE_KEYS.csrfToken);
  client.setQueryData(CURRENT_USER_KEY, null);
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== CURRENT_USER_KEY[0] });
}

/** Clears local and session storage except the theme choice (after account verification). */
export function clearStorageKeepTheme(): void {
  const theme = localStorage.getItem(STORAGE_KEYS.theme);
  localStorage.clear();
  sessionStorage.clear();
  if (theme) localStorage.setItem(STORAGE_KEYS.theme, theme);
}
