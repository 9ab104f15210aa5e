import { Badge, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';

/** One component's health (`GET /admin/health`). */
interface ComponentHealth {
  component: string;
  status: 'ok' | 'degraded' | 'down';
  detail: string;
}

const HEALTH_COLOR = { ok: 'teal', degraded: 'orange', down: 'red' } as const;

/** A small line chart of per-second rates, with its latest and peak values in words for screen readers. */
function RateChart({ title, rates }: { title: string; rates: number[] }) {
  const { t } = useTranslation();
  const width = 300;
  const height = 80;
  const peak = Math.max(1, ...rates);
  const latest = rates.at(-1) ?? 0;
  const step = width / Math.max(1, HISTORY - 1);
  // The newest rate at the right edge; the line grows leftwards as readings come in.
  const x = (i: number) => width - (rates.length - 1 - i) * step;
  const points = rates.map((r, i) => `${x(i).toFixed(1)},${(height - (r / peak) * (height - 2)).toFixed(1)}`);
  const summary = t('admin.dash.rateSummary', { latest: latest.toFixed(1), peak: peak.toFixed(1) });
  return (
    <Paper withBorder p="sm">
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <Text size="xs" c="dimmed">
        {summary}
      </Text>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        role="img"
        aria-label={`${title}: ${summary}`}
        preserveAspectRatio="none"
      >
        <polyline
          vectorEffect="non-scaling-stroke"
          points={points.join(' ')}
          fill="none"
          stroke="var(--mantine-color-teal-6)"
          strokeWidth={2}
        />
      </svg>
    </Paper>
  );
}

/** One sample of the Prometheus text format: name, labels and value. */
interface Sample {
  name: string;
  labels: string;
  value: number;
}

/** Reads the text format's sample lines (comments and histograms' buckets left out). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-z_:][a-z0-9_:]*)(\{[^}]*\})? (\S+)$/i.exec(line);
    if (!match || match[1]?.endsWith('_bucket')) continue;
    samples.push({ name: match[1] as string, labels: match[2] ?? '', value: Number(match[3]) });
  }
  return samples;
}

const FIGURES: [string, string][] = [
  ['exchange_core_term', 'admin.dash.term'],
  ['exchange_core_queue_depth', 'admin.dash.queue'],
  ['exchange_core_batch_commands_count', 'admin.dash.batches'],
  ['exchange_core_batch_commands_sum', 'admin.dash.commands'],
  ['exchange_ws_clients', 'admin.dash.wsClients'],
  ['exchange_ws_dropped_clients_total', 'admin.dash.wsDropped'],
  ['process_resident_memory_bytes', 'admin.dash.memory'],
];

/** How many 5-second samples the charts keep: five minutes. */
const HISTORY = 60;

/** Per-second rates between consecutive readings of a counter (a restart's drop counts as zero). */
export function ratesOf(readings: { at: number; value: number }[]): number[] {
  const rates: number[] = [];
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1] as { at: number; value: number };
    const b = readings[i] as { at: number; value: number };
    const seconds = (b.at - a.at) / 1000;
    rates.push(seconds > 0 && b.value >= a.value ? (b.value - a.value) / seconds : 0);
  }
  return rates;
}

/**
 * The metrics as figures, a chart of request and command rates over the last five minutes, the health of each
 * component and per-label tables, refreshed every 5 seconds (technical staff).
 */
export function AdminDashboard() {
  const { t } = useTranslation();
  const [readings, setReadings] = useState<{ at: number; requests: number; commands: number }[]>([]);
  const metrics = useQuery({
    queryKey: ['adminMetrics'],
    queryFn: async () => {
      const res = await fetch('/api/v2/admin/metrics', { credentials: 'include' });
      if (!res.ok) throw new Error(String(res.status));
      const parsed = parseMetrics(await res.text());
      const sum = (name: string) => parsed.filter((m) => m.name === name).reduce((n, m) => n + m.value, 0);
      setReadings((r) =>
        [
          ...r,
          {
            at: Date.now(),
            requests: sum('http_requests_total'),
            commands: sum('exchange_core_batch_commands_sum'),
          },
        ].slice(-HISTORY - 1),
      );
      return parsed;
    },
    refetchInterval: 5000,
  });
  const health = useQuery({
    queryKey: ['adminHealth'],
    queryFn: () => api<ComponentHealth[]>('admin', '/health'),
    refetchInterval: 5000,
  });
  const samples = metrics.data ?? [];
  const one = (name: string) => samples.find((s) => s.name === name)?.value;
  const labelled = (name: string) => samples.filter((s) => s.name === name && s.labels);
  const commitCount = one('exchange_core_commit_seconds_count');
  const commitSum = one('exchange_core_commit_seconds_sum');
  return (
    <Stack data-testid="admin-dashboard">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {FIGURES.map(([name, label]) => (
          <Stack key={name} gap={0}>
            <Text size="xs" c="dimmed">
              {t(label)}
            </Text>
            <Text fw={600}>{one(name)?.toLocaleString() ?? '—'}</Text>
          </Stack>
        ))}
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('admin.dash.commitMs')}
          </Text>
          <Text fw={600}>{commitCount ? ((1000 * (commitSum ?? 0)) / commitCount).toFixed(2) : '—'}</Text>
        </Stack>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <RateChart
          title={t('admin.dash.requestRate')}
          rates={ratesOf(readings.map((r) => ({ at: r.at, value: r.requests })))}
        />
        <RateChart
          title={t('admin.dash.commandRate')}
          rates={ratesOf(readings.map((r) => ({ at: r.at, value: r.commands })))}
        />
      </SimpleGrid>
      <Stack gap={4}>
        <Title order={5}>{t('admin.dash.health')}</Title>
        <Table data-testid="admin-health">
          <Table.Tbody>
            {(health.data ?? []).map((c) => (
              <Table.Tr key={c.component}>
                <Table.Td>{c.component}</Table.Td>
                <Table.Td>
                  <Badge color={HEALTH_COLOR[c.status]} variant="light">
                    {t(`admin.health.${c.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{c.detail}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
      {(
        ['exchange_chain_height', 'exchange_withdrawals_waiting', 'exchange_webhooks_unmatched'] as const
      ).map((name) => (
        <Stack key={name} gap={4}>
          <Title order={5}>{t(`admin.dash.${name}`)}</Title>
          <Table>
            <Table.Tbody>
              {labelled(name).length === 0 && (
                <Table.Tr>
                  <Table.Td c="dimmed">{t('admin.dash.none')}</Table.Td>
                </Table.Tr>
              )}
              {labelled(name).map((s) => (
                <Table.Tr key={s.labels}>
                  <Table.Td>{s.labels.replace(/[{}"]/g, '').replace(/^[a-z]+=/, '')}</Table.Td>
                  <Table.Td>{s.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
    </Stack>
  );
}
