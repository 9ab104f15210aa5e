import { contactSchema, LIMITS } from '@exchange/shared';
import { Button, Container, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { Captcha, useCaptchaField } from '../../components/Captcha.tsx';
import { useSchemaForm } from '../../components/useSchemaForm.ts';

const EMPTY = { email: '', subject: '', name: '', message: '' };

/** Contact form (docs/accounts.md#screens, #validation Contact). */
export function ContactPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const form = useSchemaForm(contactSchema, EMPTY);
  const [sending, setSending] = useState(false);
  const captcha = useCaptchaField();
  const error = (field: string) => (form.errors[field] ? t(form.errors[field]) : undefined);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = form.validate();
    const solved = captcha.check();
    if (!input || !solved) return;
    setSending(true);
    try {
      const userType = isLoggedIn(user) ? 'Authorize User' : 'Non Authorize User';
      await api('barong', '/identity/inquiry', {
        method: 'POST',
        body: { ...input, user_type: userType, captcha_response: captcha.response },
      });
      form.reset();
      captcha.reset();
      toast.success(t('contact.sent'));
    } catch (err) {
      if (captcha.failed(err)) return;
      toast.error(err instanceof ApiError ? err.message : t('server.error'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Container size="sm" py="xl">
      <Paper withBorder p="xl">
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={2}>{t('contact.title')}</Title>
            <Text c="dimmed">{t('contact.intro')}</Text>
            <TextInput
              label={t('contact.email')}
              name="email"
              type="text"
              inputMode="email"
              autoComplete="email"
              value={form.values.email}
              onChange={(e) => form.set('email', e.currentTarget.value)}
              error={error('email')}
            />
            <TextInput
              label={t('contact.subject')}
              name="subject"
              value={form.values.subject}
              onChange={(e) => form.set('subject', e.currentTarget.value)}
              error={error('subject')}
            />
            <TextInput
              label={t('contact.name')}
              name="name"
              maxLength={LIMITS.contact.nameInputMax}
              value={form.values.name}
              onChange={(e) => form.set('name', e.currentTarget.value)}
              error={error('name')}
            />
            <Textarea
              label={t('contact.message')}
              name="message"
              autosize
              minRows={4}
              value={form.values.message}
              onChange={(e) => form.set('message', e.currentTarget.value)}
              error={error('message')}
            />
            <Captcha {...captcha.props} />
            <Button type="submit" loading={sending}>
              {t('contact.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
