import { LIMITS, SECURITY_LOG_TOPICS } from '@exchange/shared';
import { Alert, Badge, Group, Pagination, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPage } from '../../api/client.ts';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from './kyc.ts';
import { countryLabel, loginCountry } from './security-log-country.ts';

/** An entry of the security log in Barong's Activity shape (`data` is a JSON text or null). */
export interface ActivityEntry {
  id: number;
  action: string;
  result: string;
  topic: string | null;
  user_ip: string | null;
  user_agent: string | null;
  data: string | null;
  created_at: string;
}

/** The query key of the log: the Devices section refreshes it after ending a session. */
export const SECURITY_LOG_QUERY = 'securityLog';

/** The parsed `data` of an entry, or an empty object when it holds none or no object. */
function detailsOf(entry: ActivityEntry): Record<string, unknown> {
  if (!entry.data) return {};
  try {
    const parsed: unknown = JSON.parse(entry.data);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The event's label, with the failure or end reason and new-device and new-country marks after it. */
function eventText(t: TFunction, entry: ActivityEntry): string {
  const details = detailsOf(entry);
  const label = t([`securityLog.action.${entry.action}`, entry.action]);
  const notes: string[] = [];
  if (typeof details.reason === 'string')
    notes.push(t([`securityLog.reason.${details.reason}`, details.reason]));
  if (details.new_device === true) notes.push(t('securityLog.newDevice'));
  if (details.new_country === true) notes.push(t('securityLog.newCountry'));
  return notes.length > 0 ? `${label} (${notes.join(', ')})` : label;
}

/** The device of an entry: the browser and OS recorded with a login, else the raw user agent, shortened. */
function deviceText(t: TFunction, entry: ActivityEntry): string {
  const details = detailsOf(entry);
  if (typeof details.browser === 'string' && typeof details.os === 'string')
    return t('devices.on', { browser: details.browser, os: details.os });
  const agent = entry.user_agent ?? '';
  return agent.length > 48 ? `${agent.slice(0, 47)}…` : agent || '—';
}

/** The country a login came from (recorded with GEOIP_COUNTRY_DB), under its address; nothing without one. */
function CountryNote({ entry, language }: { entry: ActivityEntry; language: string }) {
  const country = loginCountry(detailsOf(entry));
  if (!country) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="security-log-country">
      {countryLabel(country, language)}
    </Text>
  );
}

/**
 * Settings › Security log (issue 31): the user's activity from `GET /resource/users/activity/{topic}`, newest
 * first, filtered by topic and paged by its `Total` header.
 */
export function SecurityLogSection() {
  const { t, i18n } = useTranslation();
  const [topic, setTopic] = useState<string>('all');
  const [page, setPage] = useState(1);
  const limit = LIMITS.tablePageLimit;
  const list = useQuery({
    queryKey: [SECURITY_LOG_QUERY, topic, page],
    queryFn: () =>
      apiPage<ActivityEntry>('barong', `/resource/users/activity/${encodeURIComponent(topic)}`, {
        query: { page, limit },
      }),
    placeholderData: keepPreviousData,
  });
  const items = list.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / limit));
  const topics = ['all', ...SECURITY_LOG_TOPICS];

  return (
    <Paper withBorder p="lg" data-testid="security-log-section">
      <Stack>
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={3}>{t('securityLog.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('securityLog.hint')}
            </Text>
          </Stack>
          <Select
            label={t('securityLog.topic')}
            data={topics.map((value) => ({ value, label: t(`securityLog.topic.${value}`) }))}
            value={topic}
            allowDeselect={false}
            onChange={(value) => {
              setTopic(value ?? 'all');
              setPage(1);
            }}
            data-testid="security-log-topic"
            w={240}
          />
        </Group>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" data-testid="security-log-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('securityLog.time')}</Table.Th>
                <Table.Th>{t('securityLog.event')}</Table.Th>
                <Table.Th>{t('securityLog.result')}</Table.Th>
                <Table.Th>{t('securityLog.ip')}</Table.Th>
                <Table.Th>{t('securityLog.device')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((entry) => (
                <Table.Tr key={entry.id} data-testid="security-log-row" data-action={entry.action}>
                  <Table.Td>{formatDateTime(entry.created_at)}</Table.Td>
                  <Table.Td>{eventText(t, entry)}</Table.Td>
                  <Table.Td>
                    <Badge color={entry.result === 'succeed' ? 'teal' : 'red'} variant="light">
                      {t(entry.result === 'succeed' ? 'securityLog.succeed' : 'securityLog.failed')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text span size="sm" style={{ fontFamily: 'monospace' }}>
                      {entry.user_ip ?? '—'}
                    </Text>
                    <CountryNote entry={entry} language={i18n.language} />
                  </Table.Td>
                  <Table.Td>{deviceText(t, entry)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {list.isSuccess && items.length === 0 && (
          <Text size="sm" c="dimmed" ta="center">
            {t('securityLog.empty')}
          </Text>
        )}
        {list.isError && <Alert color="red">{errorText(t, list.error)}</Alert>}
        {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} />}
      </Stack>
    </Paper>
  );
}
