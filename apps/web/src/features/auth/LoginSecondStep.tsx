import { CODE_LENGTH, ERRORS, fieldErrors } from '@exchange/shared';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import type { User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { useBackgroundCaptcha, withCaptcha } from '../../components/Captcha.tsx';
import { createSession, type LoginCredentials, type PendingLogin, resendLoginCode } from './api.ts';
import { codeText, errorCodes, errorText } from './components/errors.ts';
import { OtpRequestLink } from './components/OtpRequestLink.tsx';
import { digitsOnly, loginCodeSchema, loginTotpSchema } from './schemas.ts';

interface Props {
  credentials: LoginCredentials;
  /** True: ask for the authenticator-app code; false: the code sent by email or SMS. */
  otp: boolean;
  /** Digits of the sent code as the server named them (the spec's 5 unless it serves BaseApp's flows). */
  codeLength?: number;
  /** The login already sent the code: the Get OTP countdown runs from the start. */
  codeSent?: boolean;
  onClose: () => void;
  onDone: (result: User | PendingLogin) => void;
}

/**
 * The login's second step (docs/accounts.md#screens, #states): a 6-digit two-factor code, or the 5-digit code sent to the
 * registered email or phone with a Get OTP link, a 60 s countdown and a Verify button. The server checks a
 * captcha on every login and code request and accepts each answer once, so the user's box from the first
 * step is not asked for again: each call here carries an answer solved in the background.
 */
export function LoginSecondStep({ credentials, otp, codeLength, codeSent, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const captcha = useBackgroundCaptcha();
  const scope = otp ? 'login.totp' : 'login.code';
  const length = otp ? CODE_LENGTH.totp : (codeLength ?? CODE_LENGTH.login);
  const channel = t(credentials.session_type === 'phone' ? 'identity.otp.phone' : 'identity.otp.email');

  const verify = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = (otp ? loginTotpSchema : loginCodeSchema(length)).safeParse({ code });
    if (!parsed.success) {
      const field = fieldErrors(parsed.error).code;
      setError(field ? codeText(t, field, scope) : undefined);
      return;
    }
    setBusy(true);
    try {
      const body = withCaptcha(credentials, await captcha());
      onDone(await createSession(body, otp ? { otp_code: code } : { code }));
    } catch (err) {
      const codes = errorCodes(err);
      const message = errorText(t, err, scope);
      // A wrong code counts against the account, as a wrong password does: say how many tries are left.
      const left = err instanceof ApiError ? err.details.left : undefined;
      const stop = /[.!?]$/.test(message) ? '' : '.';
      const counted = typeof left === 'number' ? `${stop} ${t('identity.login.attemptsLeft', { left })}` : '';
      if ([ERRORS.invalidOtp, ERRORS.invalidCode, ERRORS.otpUsed].some((c) => codes.includes(c)))
        setError(`${message}${counted}`);
      else {
        if (message) toast.error(message);
        if (codes.includes(ERRORS.accountBlocked)) onClose();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={t(otp ? 'identity.login.totpTitle' : 'identity.login.codeTitle')}
    >
      <form onSubmit={verify} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {otp ? t('identity.login.totpHint') : t('identity.login.codeHint', { channel })}
          </Text>
          <TextInput
            label={t(otp ? 'identity.login.totpLabel' : 'identity.login.codeLabel')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={length}
            value={code}
            onChange={(e) => {
              setCode(digitsOnly(e.currentTarget.value, length));
              setError(undefined);
            }}
            error={error}
            data-autofocus
            data-testid="login-code"
          />
          {!otp && (
            <Group justify="flex-end">
              <OtpRequestLink
                onRequest={async () => {
                  await resendLoginCode(withCaptcha(credentials, await captcha()));
                }}
                successMessage={t('identity.otp.sent', { type: channel })}
                {...(codeSent ? { startRunning: true } : {})}
                testId="login-get-otp"
              />
            </Group>
          )}
          <Button type="submit" loading={busy}>
            {t('identity.login.verify')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
