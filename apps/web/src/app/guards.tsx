import { LoadingOverlay } from '@mantine/core';
import { type ComponentType, type LazyExoticComponent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { isLoggedIn, signInPath, useCurrentUser } from '../api/user.ts';

/** A screen whose code loads on first visit (routes.tsx's `page`); `preload` asks for it without rendering it. */
export type LazyScreen = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * The screen's code is asked for at once, beside the session check: rendered only once the user is known, it would
 * otherwise start loading only then, one round trip later, on every first visit of a guarded address.
 */
function usePreload(screen: LazyScreen): void {
  useEffect(() => {
    void screen.preload().catch(() => {});
  }, [screen]);
}

/**
 * Routes for signed-in users only: visitors go to /login (or home, right after their own logout); a loading overlay
 * shows while the user loads.
 */
export function Protected({ screen: Screen }: { screen: LazyScreen }) {
  usePreload(Screen);
  const { data: user, isPending } = useCurrentUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (isPending) return <LoadingOverlay visible aria-label={t('loading.label')} />;
  if (!isLoggedIn(user)) return <Navigate to={signInPath()} replace state={{ from: location.pathname }} />;
  return <Screen />;
}

/** Routes for visitors only (login, register, ...): signed-in users go to /settings. */
export function GuestOnly({ screen: Screen }: { screen: LazyScreen }) {
  usePreload(Screen);
  const { data: user, isPending } = useCurrentUser();
  const { t } = useTranslation();
  if (isPending) return <LoadingOverlay visible aria-label={t('loading.label')} />;
  if (isLoggedIn(user)) return <Navigate to="/settings" replace />;
  return <Screen />;
}
