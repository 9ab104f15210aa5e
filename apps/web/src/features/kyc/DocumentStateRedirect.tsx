import { DOCUMENT_ERROR_STATES } from '@exchange/shared';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';

/** Pages a document error does not send the user away from: settings itself and the KYC flow. */
const STAY = ['/settings', '/sumsub-kyc'];
let checked = false;

/**
 * On start, once the current user is known: a document state in error (verification rejected, or to be
 * resubmitted) sends the user to /settings, where the KYC status says what to do (docs/kyc.md#labels).
 */
export function DocumentStateRedirect() {
  const { data: user, isPending } = useCurrentUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    if (checked || isPending) return;
    checked = true;
    const document = user?.labels?.find((l) => l.key === 'document')?.value ?? '';
    const error = (DOCUMENT_ERROR_STATES as readonly string[]).includes(document);
    if (isLoggedIn(user) && error && !STAY.includes(pathname)) navigate('/settings', { replace: true });
  }, [isPending, user, pathname, navigate]);
  return null;
}
