import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { errorText } from './components/errors.ts';

/**
 * `/accounts/confirmation?confirmation_token=…`: where the confirmation link of an email-and-password sign-up
 * leads (BASEAPP_COMPAT; BaseApp's route, so the link works whichever web app is served). The token is posted
 * once; then the login, with the outcome as a toast.
 */
export function AccountConfirmationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('confirmation_token') ?? '';
  // Posted once, also under React's development double effects: a link confirms one account once.
  const posted = useRef(false);

  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    api('barong', '/identity/users/email/confirm_code', { method: 'POST', body: { token } })
      .then(() => toast.success(t('identity.confirm.success')))
      .catch((err: unknown) => {
        const message = errorText(t, err);
        if (message) toast.error(message);
      })
      .finally(() => navigate('/login', { replace: true }));
  }, [token, navigate, t]);

  return (
    <Center py="xl">
      <Stack align="center">
        <Loader aria-hidden />
        <Text role="status">{t('identity.confirm.working')}</Text>
      </Stack>
    </Center>
  );
}
