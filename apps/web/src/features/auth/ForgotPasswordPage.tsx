import { forgotPasswordSchema } from '@exchange/shared';
import { Anchor, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { Captcha, useCaptchaField } from '../../components/Captcha.tsx';
import { useSchemaForm } from '../../components/useSchemaForm.ts';
import { AuthCard } from './components/AuthCard.tsx';
import { codeText, errorText } from './components/errors.ts';

/** Forgot password (docs/accounts.md#screens, #validation): email, then a reset link arrives by email. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useSchemaForm(forgotPasswordSchema, { email: '' });
  const [sending, setSending] = useState(false);
  const captcha = useCaptchaField();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = form.validate();
    const solved = captcha.check();
    if (!input || !solved) return;
    setSending(true);
    try {
      await api('barong', '/identity/users/password/generate_code', {
        method: 'POST',
        body: { email: input.email, captcha_response: captcha.response },
      });
      toast.success(t('identity.forgot.sent'));
      navigate('/login');
    } catch (err) {
      if (captcha.failed(err)) return;
      toast.error(errorText(t, err, 'forgot') || t('server.error'));
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthCard
      title={t('identity.forgot.title')}
      intro={t('identity.forgot.intro')}
      submitLabel={t('identity.forgot.submit')}
      sending={sending}
      onSubmit={submit}
      size="xs"
      footer={
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('identity.forgot.back')}
        </Anchor>
      }
    >
      <TextInput
        label={t('identity.forgot.email')}
        type="text"
        inputMode="email"
        autoComplete="email"
        value={form.values.email}
        onChange={(e) => form.set('email', e.currentTarget.value)}
        error={form.errors.email ? codeText(t, form.errors.email, 'forgot') : undefined}
      />
      <Captcha {...captcha.props} />
    </AuthCard>
  );
}
