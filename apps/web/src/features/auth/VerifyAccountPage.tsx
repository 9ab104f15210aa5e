import { fieldErrors } from '@exchange/shared';
import { Anchor, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { clearStorageAfterVerification } from './api.ts';
import { ChangeNumberModal } from './ChangeNumberModal.tsx';
import { codeText, errorCodes, errorText } from './components/errors.ts';
import { maskEmail, maskPhone } from './components/mask.ts';
import { OtpRequestLink } from './components/OtpRequestLink.tsx';
import { digitsOnly, verifyFormSchema } from './schemas.ts';

/** What registration (or a login of a pending account) hands to this screen in router state. */
export interface VerifyState {
  email?: string;
  phone?: string;
  /** The codes were just sent (registration, a login of a pending account): the 60 s countdown runs from the start. */
  sent?: boolean;
  /** The server's proof that this browser registered (or logged in to) the account: Change number needs it. */
  registrationToken?: string;
}

const CODE_FIELD: Record<string, 'email_otp' | 'phone_otp'> = {
  'identity.user.invalid_email_code': 'email_otp',
  'identity.user.missing_email_otp': 'email_otp',
  'identity.user.invalid_phone_code': 'phone_otp',
  'identity.user.missing_phone_otp': 'phone_otp',
};

/** Verify account (docs/accounts.md#screens, #validation): a 6-digit code from the phone and one from the email. */
export function VerifyAccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as VerifyState;
  const [phone, setPhone] = useState(state.phone ?? '');
  const [codes, setCodes] = useState({ phone_otp: '', email_otp: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [changing, setChanging] = useState(false);
  const email = state.email ?? '';

  if (!email || !phone) return <Navigate to="/login" replace />;

  const setCode = (key: 'phone_otp' | 'email_otp', value: string) => {
    setCodes((c) => ({ ...c, [key]: digitsOnly(value, 6) }));
    setErrors(({ [key]: _d, ...rest }) => rest);
  };
  const error = (field: string) => (errors[field] ? codeText(t, errors[field], 'verify') : undefined);

  const verify = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = verifyFormSchema.safeParse({ email, phone_number: phone, ...codes });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setBusy(true);
    try {
      await api('barong', '/identity/users/verify_account', { method: 'POST', body: parsed.data });
      clearStorageAfterVerification();
      toast.success(t('identity.verify.success'));
      navigate('/login', { replace: true });
    } catch (err) {
      const placed: Record<string, string> = {};
      for (const code of errorCodes(err)) {
        const field = CODE_FIELD[code];
        if (field && !placed[field]) placed[field] = code;
      }
      if (Object.keys(placed).length > 0) setErrors(placed);
      else toast.error(errorText(t, err, 'verify'));
    } finally {
      setBusy(false);
    }
  };

  const send = (channel: 'email' | 'phone') => async () => {
    await api('barong', `/identity/users/send_otp/${channel}`, {
      method: 'POST',
      body: channel === 'email' ? { email } : { email, phone_number: phone },
    });
  };

  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="xl">
        <form onSubmit={verify} noValidate>
          <Stack>
            <Title order={2}>{t('identity.verify.title')}</Title>
            <Text c="dimmed" size="sm">
              {t('identity.verify.intro')}
            </Text>
            <Stack gap={4}>
              <TextInput
                label={t('identity.verify.phoneCode', { phone: maskPhone(phone) })}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={codes.phone_otp}
                onChange={(e) => setCode('phone_otp', e.currentTarget.value)}
                error={error('phone_otp')}
                data-testid="verify-phone-code"
              />
              <Group justify="space-between">
                <Anchor component="button" type="button" size="sm" onClick={() => setChanging(true)}>
                  {t('identity.verify.changeNumber')}
                </Anchor>
                <OtpRequestLink
                  onRequest={send('phone')}
                  successMessage={t('identity.otp.sent', { type: t('identity.otp.phone') })}
                  testId="verify-phone-get-otp"
                  startRunning={state.sent === true}
                />
              </Group>
            </Stack>
            <Stack gap={4}>
              <TextInput
                label={t('identity.verify.emailCode', { email: maskEmail(email) })}
                inputMode="numeric"
                value={codes.email_otp}
                onChange={(e) => setCode('email_otp', e.currentTarget.value)}
                error={error('email_otp')}
                data-testid="verify-email-code"
              />
              <Group justify="flex-end">
                <OtpRequestLink
                  onRequest={send('email')}
                  successMessage={t('identity.otp.sent', { type: t('identity.otp.email') })}
                  testId="verify-email-get-otp"
                  startRunning={state.sent === true}
                />
              </Group>
            </Stack>
            <Button type="submit" loading={busy}>
              {t('identity.verify.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
      {changing && (
        <ChangeNumberModal
          email={email}
          registrationToken={state.registrationToken ?? ''}
          onClose={() => setChanging(false)}
          onChanged={(full) => {
            setPhone(full);
            setChanging(false);
          }}
        />
      )}
    </Container>
  );
}
