import { ERRORS, fieldErrors, fullPhoneNumber } from '@exchange/shared';
import {
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import type { User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { Captcha, useCaptchaField, withCaptcha } from '../../components/Captcha.tsx';
import {
  createSession,
  isPending,
  type LoginCredentials,
  type PendingLogin,
  rememberSession,
} from './api.ts';
import { codeText, errorText } from './components/errors.ts';
import { countryByIso, DEFAULT_PHONE_COUNTRY, DIAL_CODE_OPTIONS } from './countries.ts';
import { LoginSecondStep } from './LoginSecondStep.tsx';
import { isPhoneIdentifier, LOGIN_LIMITS, loginFormSchema, loginIdentifierInput } from './schemas.ts';
import type { VerifyState } from './VerifyAccountPage.tsx';

interface Values {
  identifier: string;
  country_code: string | null;
  password: string;
}
const EMPTY: Values = { identifier: '', country_code: DEFAULT_PHONE_COUNTRY, password: '' };

/** Login (`/login` and `/2fa`, docs/accounts.md#screens, #states, #validation): email or phone, password, then the second step. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const [step, setStep] = useState<{
    otp: boolean;
    credentials: LoginCredentials;
    codeLength?: number;
    codeSent: boolean;
  } | null>(null);
  const captcha = useCaptchaField();
  // Closing the second step clears the form: the keyboard focus goes back to its first field (WCAG 2.4.3).
  const identifierRef = useRef<HTMLInputElement>(null);
  const [closedSteps, setClosedSteps] = useState(0);
  useEffect(() => {
    if (closedSteps > 0) identifierRef.current?.focus();
  }, [closedSteps]);
  const phoneMode = isPhoneIdentifier(values.identifier);
  const error = (field: string) => (errors[field] ? codeText(t, errors[field], 'login') : undefined);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  const finish = (result: User | PendingLogin) => {
    setStep(null);
    if (isPending(result)) {
      navigate('/verify-account', {
        state: {
          email: result.email,
          phone: result.phones[0]?.number,
          sent: true,
          registrationToken: result.registration_token,
        } satisfies VerifyState,
      });
      toast.success(t('identity.login.pendingNotice'));
      return;
    }
    rememberSession(client, result);
    navigate('/settings', { replace: true });
    toast.success(t('identity.login.success'));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const id = values.identifier.trim();
    const sessionType = phoneMode ? 'phone' : 'email';
    const dial = countryByIso(values.country_code)?.dial ?? '';
    const credentials: LoginCredentials = phoneMode
      ? { session_type: 'phone', phone_number: fullPhoneNumber(dial, id), password: values.password }
      : { session_type: 'email', email: id, password: values.password };
    const parsed = loginFormSchema.safeParse({ ...credentials, session_type: sessionType, ...values });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    const solved = captcha.check();
    if (!parsed.success || !solved) return;
    setLoading(true);
    try {
      finish(await createSession(withCaptcha(credentials, captcha.response)));
    } catch (err) {
      if (err instanceof ApiError && err.errors.includes(ERRORS.missingOtp)) {
        // The second step re-sends the login; it brings its own captcha answers (each is accepted once).
        // The server says how long the sent code is (5 digits; 6 when it serves BaseApp's flows) and whether it
        // sent one already (then the Get OTP countdown starts at once).
        const { code_length: codeLength, code_sent: codeSent } = err.details;
        setStep({
          otp: err.details.otp === true,
          credentials,
          ...(typeof codeLength === 'number' ? { codeLength } : {}),
          codeSent: codeSent === true,
        });
        return;
      }
      if (captcha.failed(err)) return;
      const message = errorText(t, err, 'login');
      if (message) toast.error(message);
    } finally {
      setLoading(false);
    }
  };

  /** Closing the second step resets the form, the countdown (unmounted with the dialog) and the captcha. */
  const closeStep = () => {
    setStep(null);
    setValues(EMPTY);
    setErrors({});
    captcha.reset();
    setClosedSteps((n) => n + 1);
  };

  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="xl">
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={2}>{t('identity.login.title')}</Title>
            <Group align="flex-start" wrap="nowrap" gap="xs">
              {phoneMode && (
                <Select
                  label={t('identity.login.countryCode')}
                  data={DIAL_CODE_OPTIONS}
                  value={values.country_code}
                  onChange={(value) => set('country_code', value)}
                  searchable
                  // Picking the chosen country again keeps it (the field is required and defaults to Austria).
                  allowDeselect={false}
                  w={190}
                  comboboxProps={{ width: 280, position: 'bottom-start' }}
                  error={error('country_code')}
                  data-testid="login-country-code"
                />
              )}
              <TextInput
                ref={identifierRef}
                label={t('identity.login.identifier')}
                name="identifier"
                autoComplete="username"
                maxLength={LOGIN_LIMITS.identifierMax}
                value={values.identifier}
                onChange={(e) => set('identifier', loginIdentifierInput(e.currentTarget.value))}
                error={error('identifier')}
                style={{ flex: 1 }}
              />
            </Group>
            <PasswordInput
              label={t('identity.login.password')}
              name="password"
              autoComplete="current-password"
              maxLength={LOGIN_LIMITS.passwordMax}
              value={values.password}
              onChange={(e) => set('password', e.currentTarget.value)}
              error={error('password')}
              visibilityToggleButtonProps={{ 'aria-label': t('identity.password.toggle') }}
            />
            <Captcha {...captcha.props} />
            <Group justify="flex-end">
              <Anchor component={Link} to="/forgot-password" size="sm">
                {t('identity.login.forgot')}
              </Anchor>
            </Group>
            <Button type="submit" loading={loading} disabled={loading || step !== null}>
              {t('identity.login.submit')}
            </Button>
            <Text size="sm" ta="center">
              {t('identity.login.noAccount')}{' '}
              <Anchor component={Link} to="/register">
                {t('identity.login.signUp')}
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
      {step && (
        <LoginSecondStep
          credentials={step.credentials}
          otp={step.otp}
          {...(step.codeLength ? { codeLength: step.codeLength } : {})}
          codeSent={step.codeSent}
          onClose={closeStep}
          onDone={finish}
        />
      )}
    </Container>
  );
}
