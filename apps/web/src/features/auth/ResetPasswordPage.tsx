import { ERRORS } from '@exchange/shared';
import { Anchor, PasswordInput, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { useSchemaForm } from '../../components/useSchemaForm.ts';
import { AuthCard } from './components/AuthCard.tsx';
import { codeText, errorCodes, errorText } from './components/errors.ts';
import { resetFormSchema } from './schemas.ts';

/** Reset password (`/password-reset/:token`, docs/accounts.md#screens, #validation): new password and its confirmation. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const form = useSchemaForm(resetFormSchema, {
    reset_password_token: token,
    password: '',
    confirm_password: '',
    lang: 'EN',
  });
  const [sending, setSending] = useState(false);
  const error = (field: string) =>
    form.errors[field] ? codeText(t, form.errors[field], 'reset') : undefined;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = form.validate();
    if (!input) {
      if (!resetFormSchema.shape.reset_password_token.safeParse(token).success)
        toast.error(t(ERRORS.invalidResetToken));
      return;
    }
    setSending(true);
    try {
      await api('barong', '/identity/users/password/confirm_code', { method: 'POST', body: input });
      toast.success(t('identity.reset.success'));
      navigate('/login', { replace: true });
    } catch (err) {
      const codes = errorCodes(err);
      const field = codes.find((c) => c.startsWith('password.'));
      if (field) form.setErrors({ password: field });
      else toast.error(errorText(t, err, 'reset'));
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthCard
      title={t('identity.reset.title')}
      intro={t('identity.reset.intro')}
      submitLabel={t('identity.reset.submit')}
      sending={sending}
      onSubmit={submit}
      size="xs"
      footer={
        <Text size="sm" ta="center">
          {t('identity.reset.noAccount')}{' '}
          <Anchor component={Link} to="/register">
            {t('identity.reset.register')}
          </Anchor>
        </Text>
      }
    >
      <PasswordInput
        label={t('identity.reset.password')}
        autoComplete="new-password"
        maxLength={64}
        value={form.values.password}
        onChange={(e) => form.set('password', e.currentTarget.value)}
        error={error('password')}
        visibilityToggleButtonProps={{ 'aria-label': t('identity.password.toggle') }}
      />
      <PasswordInput
        label={t('identity.reset.confirmPassword')}
        autoComplete="new-password"
        maxLength={64}
        value={form.values.confirm_password}
        onChange={(e) => form.set('confirm_password', e.currentTarget.value)}
        error={error('confirm_password')}
        visibilityToggleButtonProps={{ 'aria-label': t('identity.password.toggle') }}
      />
    </AuthCard>
  );
}
