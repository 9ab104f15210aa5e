import { LIMITS, STORAGE_KEYS } from '@exchange/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENT_USER_KEY, isLoggedIn, useCurrentUser, useLogout } from '../api/user.ts';

const ACTIVITY_EVENTS = ['click', 'keydown', 'scroll', 'mousemove', 'wheel', 'touchstart'] as const;

/**
 * Idle timeout (accounts spec §4, §9): while logged in, 60 minutes without click, key, scroll or mouse
 * activity alert "Session expired, Please login again" and log out.
 */
export function IdleLogout({ onLoggedOut }: { onLoggedOut: () => void }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const logout = useLogout();
  const loggedIn = isLoggedIn(user);
  const client = useQueryClient();
  const latest = useRef({ logout, onLoggedOut, client, message: t('session.expired') });
  latest.current = { logout, onLoggedOut, client, message: t('session.expired') };

  useEffect(() => {
    if (!loggedIn) return;
    let timer = 0;
    const expire = async () => {
      const { logout: end, onLoggedOut: done, message, client } = latest.current;
      // The logout request leaves before the alert blocks, so the session ends even if nobody answers it.
      const ended = end().catch(() => {
        // The session may already be gone on the server; forget it locally all the same.
        localStorage.removeItem(STORAGE_KEYS.csrfToken);
        client.setQueryData(CURRENT_USER_KEY, null);
      });
      window.alert(message);
      await ended;
      done();
    };
    const arm = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void expire(), LIMITS.idleLogoutMs);
    };
    arm();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, arm, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, arm, { capture: true });
    };
  }, [loggedIn]);

  return null;
}
