import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, apiPage } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from './kyc.ts';
import { SECURITY_LOG_QUERY } from './SecurityLogSection.tsx';

/** A live session as `GET /resource/sessions` lists it. */
export interface DeviceSession {
  id: string;
  browser: string;
  os: string;
  user_ip: string | null;
  current: boolean;
  created_at: string;
  last_seen_at: string;
}

const SESSIONS_QUERY = 'deviceSessions';
/** One page holds them all in practice: a session lives 24 hours at most. */
const SESSIONS_LIMIT = 100;

/**
 * Settings › Devices (issue 31): where the account is signed in now, this device marked, with **End session** for
 * each other one and for all others at once.
 */
export function DevicesSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const list = useQuery({
    queryKey: [SESSIONS_QUERY],
    queryFn: () =>
      apiPage<DeviceSession>('barong', '/resource/sessions', { query: { limit: SESSIONS_LIMIT } }),
  });
  const items = list.data?.items ?? [];
  const others = items.filter((s) => !s.current);

  const end = async (target: string | 'others') => {
    setBusy(target);
    try {
      if (target === 'others') {
        const { ended } = await api<{ ended: number }>('barong', '/resource/sessions', { method: 'DELETE' });
        toast.success(t('devices.endedOthers', { count: ended }));
      } else {
        await api('barong', `/resource/sessions/${encodeURIComponent(target)}`, { method: 'DELETE' });
        toast.success(t('devices.ended'));
      }
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(null);
      await Promise.all([
        client.invalidateQueries({ queryKey: [SESSIONS_QUERY] }),
        client.invalidateQueries({ queryKey: [SECURITY_LOG_QUERY] }),
      ]);
    }
  };

  return (
    <Paper withBorder p="lg" data-testid="devices-section">
      <Stack>
        <Group justify="space-between">
          <Stack gap={2}>
            <Title order={3}>{t('devices.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('devices.hint')}
            </Text>
          </Stack>
          <Button
            variant="light"
            color="red"
            disabled={others.length === 0 || busy !== null}
            loading={busy === 'others'}
            onClick={() => end('others')}
            data-testid="devices-end-others"
          >
            {t('devices.endOthers')}
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={600}>
          <Table verticalSpacing="sm" data-testid="devices-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('securityLog.device')}</Table.Th>
                <Table.Th>{t('devices.ip')}</Table.Th>
                <Table.Th>{t('devices.lastSeen')}</Table.Th>
                <Table.Th>{t('devices.started')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => {
                const device = t('devices.on', { browser: s.browser, os: s.os });
                return (
                  <Table.Tr key={s.id} data-testid="device-row" data-current={s.current}>
                    <Table.Td>
                      <Group gap="xs">
                        <Text>{device}</Text>
                        {s.current && (
                          <Badge color="teal" variant="light">
                            {t('devices.thisDevice')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td style={{ fontFamily: 'monospace' }}>{s.user_ip ?? '—'}</Table.Td>
                    <Table.Td>{formatDateTime(s.last_seen_at)}</Table.Td>
                    <Table.Td>{formatDateTime(s.created_at)}</Table.Td>
                    <Table.Td>
                      {!s.current && (
                        <Button
                          size="xs"
                          variant="default"
                          disabled={busy !== null}
                          loading={busy === s.id}
                          onClick={() => end(s.id)}
                          aria-label={t('devices.endLabel', {
                            browser: s.browser,
                            os: s.os,
                            ip: s.user_ip ?? '',
                          })}
                        >
                          {t('devices.end')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {list.isSuccess && others.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('devices.none')}
          </Text>
        )}
        {list.isError && <Alert color="red">{errorText(t, list.error)}</Alert>}
      </Stack>
    </Paper>
  );
}
