import { LIMITS, STORAGE_KEYS } from '@exchange/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CURRENT_USER_KEY, isLoggedIn, useCurrentUser, useLogout } from '../api/user.ts';

const ACTIVITY_EVENTS = ['click', 'keydown', 'scroll', 'mousemove', 'wheel', 'touchstart'] as const;

/**
 * Idle timeout (docs/accounts.md#states, #constants): while logged in, 60 minutes without click, key, scroll or mouse
 * activity alert "Session expired, Please login again" and log out.
 */
export function IdleLogout() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const logout = useLogout();
  const loggedIn = isLoggedIn(user);
  const client = useQueryClient();
  const navigate = useNavigate();
  const latest = useRef({ logout, navigate, client, message: t('session.expired') });
  latest.current = { logout, navigate, client, message: t('session.expired') };

  useEffect(() => {
    if (!loggedIn) return;
    let timer = 0;
    const expire = async () => {
      const { logout: end, navigate: go, message, client } = latest.current;
      // The logout request leaves before the alert blocks, so the session ends even if nobody answers it.
      const ended = end('/login').catch(() => {
        // The session may already be gone on the server; forget it locally all the same.
        go('/login', { replace: true });
        localStorage.removeItem(STORAGE_KEYS.csrfToken);
        client.setQueryData(CURRENT_USER_KEY, null);
      });
      window.alert(message);
      await ended;
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
