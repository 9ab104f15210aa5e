import { STORAGE_KEYS } from '@exchange/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from './client.ts';

/** The signed-in user as Barong returns it (DESIGN.md §6 user entity). */
export interface User {
  email: string;
  uid: string;
  role: string;
  level: number;
  otp: boolean;
  state: string;
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
export function useCurrentUser(options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: async (): Promise<User | null> => {
      try {
        return await api<User>('barong', '/resource/users/me');
      } catch {
        return null;
      }
    },
    staleTime: 60_000,
    retry: false,
    refetchInterval: options.refetchInterval,
  });
}

/** A user counts as logged in only when loaded, with an email, in state `active` (accounts spec §1). */
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
  return async (to = '/') => {
    await api('barong', '/identity/sessions', { method: 'DELETE' });
    navigate(to, { replace: true });
    const theme = localStorage.getItem(STORAGE_KEYS.theme);
    const favourites = localStorage.getItem(STORAGE_KEYS.favouriteMarkets);
    localStorage.clear();
    sessionStorage.clear();
    if (theme) localStorage.setItem(STORAGE_KEYS.theme, theme);
    if (favourites) localStorage.setItem(STORAGE_KEYS.favouriteMarkets, favourites);
    client.setQueryData(CURRENT_USER_KEY, null);
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== CURRENT_USER_KEY[0] });
  };
}
