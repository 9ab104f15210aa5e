import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, whileEndingSession } from './client.ts';
import { clearBrowserStorage, KEPT_AFTER_LOGOUT } from './storage.ts';

/** The signed-in user as Barong returns it (docs/platform.md#wire-contract user entity). */
export interface User {
  /** The public id: the same as `uid`. */
  id?: string;
  email: string;
  uid: string;
  role: string;
  level: number;
  otp: boolean;
  state: string;
  /** Personal or business (issue 31); absent from older servers, read as personal. */
  account_type?: 'personal' | 'business';
  /** Whether the user set an anti-phishing phrase (shown in every email). */
  anti_phishing?: boolean;
  csrf_token?: string;
  labels?: { key: string; value: string; scope: string }[];
  phones?: { country: string; number: string; validated_at: string | null }[];
  profiles?: Record<string, string | null>[];
  created_at?: string;
  updated_at?: string;
}

export const CURRENT_USER_KEY = ['currentUser'] as const;

/**
 * Fetches the current user; `null` when nobody is signed in or the session is gone. `refetchInterval` polls
 * (the KYC page watches its label move).
 */
/** Set by the user's own logout, until someone signs in again. */
let loggedOutByUser = false;

/**
 * Where a protected page still on screen sends a visitor who has no session: the landing page right after the
 * user's own logout (the page may stay on screen while the next one loads), /login otherwise.
 */
export function signInPath(): string {
  return loggedOutByUser ? '/' : '/login';
}

/** Someone is signed in: a session lost later leads to /login again. */
export function markSignedIn(): void {
  loggedOutByUser = false;
}

export function useCurrentUser(options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: async (): Promise<User | null> => {
      try {
        const user = await api<User>('barong', '/resource/users/me');
        markSignedIn();
        return user;
      } catch {
        return null;
      }
    },
    staleTime: 60_000,
    retry: false,
    refetchInterval: options.refetchInterval,
  });
}

/** A user counts as logged in only when loaded, with an email, in state `active` (docs/accounts.md#overview). */
export function isLoggedIn(user: User | null | undefined): user is User {
  return Boolean(user?.email) && user?.state === 'active';
}

/**
 * Ends the session on the server, leaves for `to` (the landing page by default), then forgets everything the
 * browser kept for it. Leaving first matters: a protected page still on screen would send the user to /login.
 */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return (to = '/') =>
    // The page's own calls still under way are refused once the session is gone: that is no lost session.
    whileEndingSession(async () => {
      const others = {
        predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== CURRENT_USER_KEY[0],
      };
      await client.cancelQueries(others);
      await api('barong', '/identity/sessions', { method: 'DELETE' });
      // Leave a protected page before the user is cleared: its guard would otherwise see no user and go to /login.
      await navigate(to, { replace: true });
      clearBrowserStorage(KEPT_AFTER_LOGOUT);
      loggedOutByUser = true;
      client.setQueryData(CURRENT_USER_KEY, null);
      client.removeQueries(others);
    });
}
