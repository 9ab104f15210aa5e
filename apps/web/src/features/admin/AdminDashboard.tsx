import { SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

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

/** The metrics as figures and per-label tables, refreshed every 5 seconds (technical staff). */
export function AdminDashboard() {
  const { t } = useTranslation();
  const metrics = useQuery({
    queryKey: ['adminMetrics'],
    queryFn: async () => {
      const res = await fetch('/api/v2/admin/metrics', { credentials: 'include' });
      if (!res.ok) throw new Error(String(res.status));
      return parseMetrics(await res.text());
    },
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
      {(
        [
          'exchange_chain_height',
          'exchange_withdrawals_waiting',
          'exchange_webhook_deliveries_failing',
        ] as const
      ).map((name) => (
        <Stack key={name} gap={4}>
          <Title order={5}>{t(`admin.dash.${name}`)}</Title>
          <Table>
            <Table.Tbody>
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
