import { ERRORS, REGISTRATION_COUNTRIES } from '@exchange/shared';
import {
  Anchor,
  Checkbox,
  Group,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { Captcha, useCaptchaField } from '../../components/Captcha.tsx';
import { useSchemaForm } from '../../components/useSchemaForm.ts';
import type { RegisterResult } from './api.ts';
import { AuthCard } from './components/AuthCard.tsx';
import { codeText, errorCodes, errorText } from './components/errors.ts';
import { digitsOnly, registerFormSchema } from './schemas.ts';
import type { VerifyState } from './VerifyAccountPage.tsx';

const EMPTY = {
  first_name: '',
  middle_name: '',
  last_name: '',
  email: '',
  country: '',
  country_code: '',
  phone_number: '',
  password: '',
  confirm_password: '',
  terms: false,
  account_type: 'personal' as 'personal' | 'business',
};

/** Names keep letters, spaces and hyphens only, stripped as typed (docs/accounts.md#validation Register). */
const nameOnly = (value: string) => value.replace(/[^\p{L} -]/gu, '').slice(0, 40);

const COUNTRY_OPTIONS = REGISTRATION_COUNTRIES.map((c) => ({
  value: c.code,
  label: `${c.name} (+${c.dial})`,
}));

/** Server codes that belong under one field rather than in a toast. */
const FIELD_OF: Record<string, string> = {
  [ERRORS.emailTaken]: 'email',
  [ERRORS.invalidEmail]: 'email',
  [ERRORS.passwordWeak]: 'password',
  [ERRORS.passwordPattern]: 'password',
  [ERRORS.invalidName]: 'first_name',
  [ERRORS.invalidPhone]: 'phone_number',
  [ERRORS.invalidCountry]: 'country',
};

/** Registration (docs/accounts.md#screens, #validation): details as on the legal documents, then /verify-account. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useSchemaForm(registerFormSchema, EMPTY);
  const [sending, setSending] = useState(false);
  const captcha = useCaptchaField();
  const v = form.values;
  const error = (field: string) =>
    form.errors[field] ? codeText(t, form.errors[field], 'register') : undefined;
  const mismatch = v.confirm_password.length > 0 && v.confirm_password !== v.password;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = form.validate();
    const solved = captcha.check();
    if (!input || !solved) return;
    const { confirm_password: _c, terms: _t, ...fields } = input;
    setSending(true);
    try {
      const result = await api<RegisterResult>('barong', '/identity/users', {
        method: 'POST',
        body: { ...fields, captcha_response: captcha.response },
      });
      toast.success(t('identity.register.success'));
      navigate('/verify-account', {
        state: {
          email: result.email,
          phone: result.phone_number,
          sent: true,
          registrationToken: result.registration_token,
        } satisfies VerifyState,
      });
    } catch (err) {
      // After a registration error the captcha is reset (docs/accounts.md#errors): its answer was spent.
      if (captcha.failed(err)) return;
      const placed: Record<string, string> = {};
      for (const code of errorCodes(err)) {
        const field = FIELD_OF[code];
        if (field && !placed[field]) placed[field] = code;
      }
      if (Object.keys(placed).length > 0) form.setErrors(placed);
      else toast.error(errorText(t, err, 'register'));
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthCard
      title={t('identity.register.title')}
      intro={t('identity.register.headline')}
      submitLabel={t('identity.register.submit')}
      sending={sending}
      onSubmit={submit}
      size="sm"
      footer={
        <Text size="sm" ta="center">
          {t('identity.register.haveAccount')}{' '}
          <Anchor component={Link} to="/login">
            {t('identity.register.login')}
          </Anchor>
        </Text>
      }
    >
      <Stack gap={4}>
        <Text size="sm" fw={500} id="register-account-type-label">
          {t('identity.register.accountType')}
        </Text>
        <SegmentedControl
          aria-labelledby="register-account-type-label"
          data-testid="register-account-type"
          value={v.account_type}
          onChange={(value) => form.set('account_type', value === 'business' ? 'business' : 'personal')}
          data={[
            { value: 'personal', label: t('identity.register.accountType.personal') },
            { value: 'business', label: t('identity.register.accountType.business') },
          ]}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('identity.register.firstName')}
          value={v.first_name}
          onChange={(e) => form.set('first_name', nameOnly(e.currentTarget.value))}
          error={error('first_name')}
        />
        <TextInput
          label={t('identity.register.middleName')}
          value={v.middle_name}
          onChange={(e) => form.set('middle_name', nameOnly(e.currentTarget.value))}
          error={error('middle_name')}
        />
        <TextInput
          label={t('identity.register.lastName')}
          value={v.last_name}
          onChange={(e) => form.set('last_name', nameOnly(e.currentTarget.value))}
          error={error('last_name')}
        />
      </SimpleGrid>
      <TextInput
        label={t('identity.register.email')}
        type="text"
        inputMode="email"
        autoComplete="email"
        maxLength={40}
        value={v.email}
        onChange={(e) => form.set('email', e.currentTarget.value)}
        error={error('email')}
      />
      <Group align="flex-start" wrap="nowrap" data-testid="register-phone-row">
        <Select
          style={{ flex: 1, minWidth: 0 }}
          label={t('identity.register.country')}
          placeholder={t('identity.register.countryPlaceholder')}
          data={COUNTRY_OPTIONS}
          value={v.country || null}
          onChange={(value) => {
            const country = REGISTRATION_COUNTRIES.find((c) => c.code === value);
            form.set('country', value ?? '');
            form.set('country_code', country?.dial ?? '');
          }}
          error={error('country')}
          allowDeselect={false}
        />
        <TextInput
          label={t('identity.register.countryCode')}
          value={v.country_code ? `+${v.country_code}` : ''}
          readOnly
          w={110}
          style={{ flexShrink: 0 }}
        />
        <TextInput
          style={{ flex: 1, minWidth: 0 }}
          label={t('identity.register.phone')}
          inputMode="numeric"
          autoComplete="tel-national"
          value={v.phone_number}
          onChange={(e) => form.set('phone_number', digitsOnly(e.currentTarget.value, 14))}
          error={error('phone_number')}
        />
      </Group>
      <PasswordInput
        label={t('identity.register.password')}
        autoComplete="new-password"
        maxLength={64}
        value={v.password}
        onChange={(e) => form.set('password', e.currentTarget.value)}
        error={error('password')}
        visibilityToggleButtonProps={{ 'aria-label': t('identity.password.toggle') }}
      />
      <PasswordInput
        label={t('identity.register.confirmPassword')}
        autoComplete="new-password"
        maxLength={64}
        value={v.confirm_password}
        onChange={(e) => form.set('confirm_password', e.currentTarget.value)}
        error={error('confirm_password') ?? (mismatch ? t('register/password.mismatch') : undefined)}
        visibilityToggleButtonProps={{ 'aria-label': t('identity.password.toggle') }}
      />
      <Captcha {...captcha.props} />
      <Checkbox
        checked={v.terms}
        onChange={(e) => form.set('terms', e.currentTarget.checked)}
        error={error('terms')}
        label={
          <>
            {t('identity.register.termsPrefix')}{' '}
            <Anchor href="/terms" target="_blank" rel="noopener" inherit>
              {t('identity.register.termsLink')}
            </Anchor>
          </>
        }
      />
    </AuthCard>
  );
}
