import { Alert, Badge, Code, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';

interface OutboxMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  created_at: string;
}

/**
 * Developer inbox (DEV_TOOLS only): the mail and SMS outbox, newest first, so a person can register and log in
 * without a real mailbox or phone. Refreshes every 2 seconds.
 */
export function DevInboxPage() {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const inbox = useQuery({
    queryKey: ['dev-outbox', to],
    queryFn: () =>
      api<OutboxMessage[]>('barong', '/dev/outbox', { query: { to: to.trim() || undefined, limit: 50 } }),
    refetchInterval: 2000,
    retry: false,
  });
  const off = inbox.error instanceof ApiError && inbox.error.code === 404;
  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={2}>{t('dev.inbox.title')}</Title>
        <Text c="dimmed">{t('dev.inbox.intro')}</Text>
        {off ? (
          <Alert color="yellow">{t('dev.inbox.off')}</Alert>
        ) : (
          <>
            <TextInput
              label={t('dev.inbox.filter')}
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
            {inbox.data?.length === 0 && <Text>{t('dev.inbox.empty')}</Text>}
            {inbox.data?.map((m) => (
              <Paper key={`${m.created_at}-${m.to}-${m.subject}`} withBorder p="md" data-testid="dev-message">
                <Group justify="space-between" mb="xs">
                  <Group gap="xs">
                    <Badge color={m.channel === 'sms' ? 'grape' : 'blue'}>{m.channel}</Badge>
                    <Text fw={600}>{m.to}</Text>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {new Date(m.created_at).toLocaleString()}
                  </Text>
                </Group>
                {m.subject && <Text fw={500}>{m.subject}</Text>}
                {/* Focusable, so a long message scrolls from the keyboard too (WCAG 2.1.1). */}
                <Code block tabIndex={0}>
                  {m.body}
                </Code>
              </Paper>
            ))}
          </>
        )}
      </Stack>
    </Container>
  );
}
