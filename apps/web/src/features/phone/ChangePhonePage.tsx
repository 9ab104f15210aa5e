import {
  CODE_LENGTH,
  ERRORS,
  fieldErrors,
  fullPhoneNumber,
  startPhoneChangeSchema,
  textField,
  verifyOtpCodeSchema,
  verifyPhoneSchema,
} from '@exchange/shared';
import {
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { api } from '../../api/client.ts';
import { CURRENT_USER_KEY, useCurrentUser } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { codeText, errorCodes, errorText } from '../auth/components/errors.ts';
import { OtpRequestLink } from '../auth/components/OtpRequestLink.tsx';
import { COUNTRIES, countryByIso } from '../auth/countries.ts';
import { digitsOnly } from '../auth/schemas.ts';

/** Phone change page limit: non-digits stripped, max 30 (docs/accounts.md#validation, #constants). */
const PHONE_MAX = 30;
const MISSING_CODE = 'identity.phone.missing_code';

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.iso, label: `${c.name} (+${c.dial})` }));

/** The new-number form: the shared body plus a required country and number. */
const numberSchema = startPhoneChangeSchema.safeExtend({
  country: z.string().min(1, ERRORS.fieldRequired),
  number: z.string().min(1, ERRORS.fieldRequired),
});

/** The code form: the shared body; an empty code says "Please enter OTP Code". */
const codeSchema = verifyPhoneSchema.safeExtend({
  verification_code: textField(MISSING_CODE, [
    [(v) => v.length > 0, MISSING_CODE],
    [(v) => /^\d{6}$/.test(v), ERRORS.phoneCodeInvalid],
  ]),
});

type Step = 'otp' | 'number' | 'code';

/**
 * Change phone number (`/update-number/phone`, docs/accounts.md#screens, #states, #validation): the two-factor code first when 2FA
 * is on, then the new number, then the SMS code with a resend link and a 60 s countdown.
 */
export function ChangePhonePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { data: user } = useCurrentUser();
  const [step, setStep] = useState<Step>(user?.otp ? 'otp' : 'number');
  const [otpCode, setOtpCode] = useState('');
  const [country, setCountry] = useState<string | null>(null);
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const full = fullPhoneNumber(countryByIso(country)?.dial ?? '', number);
  const error = (field: string) => (errors[field] ? codeText(t, errors[field], 'phone') : undefined);
  const clear = (field: string) => setErrors(({ [field]: _d, ...rest }) => rest);

  const run = async (action: () => Promise<void>, fieldOf: Record<string, string>) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      const code = errorCodes(err).find((c) => fieldOf[c]);
      const field = code ? fieldOf[code] : undefined;
      if (code && field) setErrors({ [field]: code });
      else toast.error(errorText(t, err, 'phone'));
    } finally {
      setBusy(false);
    }
  };

  const submitOtp = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = verifyOtpCodeSchema.safeParse({ otp_code: otpCode });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    void run(
      async () => {
        await api('barong', '/resource/phones/verify_otp_code', { method: 'POST', body: parsed.data });
        setStep('number');
      },
      { [ERRORS.totpInvalid]: 'otp_code', [ERRORS.invalidOtp]: 'otp_code' },
    );
  };

  const submitNumber = (event: React.FormEvent) => {
    event.preventDefault();
    // The two-factor step already marked this session; a TOTP code is accepted only once, so none is resent.
    const body = { phone_number: full, country: country ?? '' };
    const parsed = numberSchema.safeParse({ ...body, number });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    void run(
      async () => {
        await api('barong', '/resource/phones', { method: 'POST', body });
        toast.success(t('identity.otp.sent', { type: t('identity.otp.phone') }));
        setStep('code');
      },
      { [ERRORS.phoneInvalid]: 'number', [ERRORS.phoneExists]: 'number' },
    );
  };

  const submitCode = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = codeSchema.safeParse({
      phone_number: full,
      verification_code: code,
      country: country ?? '',
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    void run(
      async () => {
        await api('barong', '/resource/phones/verify', { method: 'POST', body: parsed.data });
        await client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
        toast.success(t('identity.phone.updated'));
        navigate('/settings');
      },
      { [ERRORS.phoneCodeInvalid]: 'verification_code' },
    );
  };

  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="xl">
        <Stack>
          <Title order={2}>{t('identity.phone.title')}</Title>
          {step === 'otp' && (
            <form onSubmit={submitOtp} noValidate>
              <Stack>
                <Text size="sm" c="dimmed">
                  {t('identity.phone.otpIntro')}
                </Text>
                <CodeInput
                  label={t('identity.phone.otpLabel')}
                  length={CODE_LENGTH.totp}
                  value={otpCode}
                  onChange={(value) => {
                    setOtpCode(value);
                    clear('otp_code');
                  }}
                  error={error('otp_code')}
                  testId="phone-otp-code"
                />
                <Button type="submit" loading={busy}>
                  {t('identity.phone.continue')}
                </Button>
              </Stack>
            </form>
          )}
          {step === 'number' && (
            <form onSubmit={submitNumber} noValidate>
              <Stack>
                <Select
                  label={t('identity.phone.country')}
                  data={COUNTRY_OPTIONS}
                  value={country}
                  onChange={(v) => {
                    setCountry(v);
                    clear('country');
                  }}
                  searchable
                  allowDeselect={false}
                  error={error('country')}
                />
                <TextInput
                  label={t('identity.phone.number')}
                  inputMode="numeric"
                  autoComplete="tel-national"
                  value={number}
                  onChange={(e) => {
                    setNumber(digitsOnly(e.currentTarget.value, PHONE_MAX));
                    clear('number');
                  }}
                  error={error('number') ?? error('phone_number')}
                />
                <Button type="submit" loading={busy}>
                  {t('identity.phone.sendCode')}
                </Button>
              </Stack>
            </form>
          )}
          {step === 'code' && (
            <form onSubmit={submitCode} noValidate>
              <Stack>
                <Text size="sm" c="dimmed">
                  {t('identity.phone.codeIntro', { phone: `+${full}` })}
                </Text>
                <CodeInput
                  label={t('identity.phone.codeLabel')}
                  length={CODE_LENGTH.verification}
                  value={code}
                  onChange={(value) => {
                    setCode(value);
                    clear('verification_code');
                  }}
                  error={error('verification_code')}
                  testId="phone-code"
                />
                <Group justify="flex-end">
                  <OtpRequestLink
                    startRunning
                    label={t('identity.phone.resend')}
                    onRequest={async () => {
                      await api('barong', '/resource/phones/send_code', {
                        method: 'POST',
                        body: { phone_number: full },
                      });
                    }}
                    successMessage={t('identity.otp.sent', { type: t('identity.otp.phone') })}
                  />
                </Group>
                <Button type="submit" loading={busy}>
                  {t('identity.phone.verify')}
                </Button>
              </Stack>
            </form>
          )}
          <Anchor component={Link} to="/settings" size="sm" ta="center">
            {t('identity.phone.back')}
          </Anchor>
        </Stack>
      </Paper>
    </Container>
  );
}
