import type { OutboxMessage } from '@exchange/shared';
import { Alert, Badge, Code, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';

/**
 * Developer inbox (DEV_TOOLS only): the mail and SMS outbox, newest first, so a person can register and log in
 * without a real mailbox or phone. Refreshes every 2 seconds. The server shows each message's secret (code,
 * link, pin) once and then forgets it, so the page keeps what it was shown, in memory only, while it is open.
 */
export function DevInboxPage() {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const seen = useRef(new Map<string, OutboxMessage>());
  const inbox = useQuery({
    queryKey: ['dev-outbox', to],
    queryFn: async () => {
      const messages = await api<OutboxMessage[]>('barong', '/dev/outbox', {
        query: { to: to.trim() || undefined, limit: 50 },
      });
      return messages.map((m) => {
        if (m.secret) seen.current.set(m.id, m);
        return seen.current.get(m.id) ?? m;
      });
    },
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
              <Paper key={m.id} withBorder p="md" data-testid="dev-message">
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
