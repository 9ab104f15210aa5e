import { LoadingOverlay } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { isLoggedIn, signInPath, useCurrentUser } from '../api/user.ts';

/**
 * Routes for signed-in users only: visitors go to /login (or home, right after their own logout); a loading overlay
 * shows while the user loads.
 */
export function Protected({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (isPending) return <LoadingOverlay visible aria-label={t('loading.label')} />;
  if (!isLoggedIn(user)) return <Navigate to={signInPath()} replace state={{ from: location.pathname }} />;
  return children;
}

/** Routes for visitors only (login, register, ...): signed-in users go to /settings. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  const { t } = useTranslation();
  if (isPending) return <LoadingOverlay visible aria-label={t('loading.label')} />;
  if (isLoggedIn(user)) return <Navigate to="/settings" replace />;
  return children;
}
