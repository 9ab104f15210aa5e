import { API, type SolvencyCurrencyEntity, type SolvencyReportEntity } from '@exchange/shared';
import { Anchor, Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useAdminAction } from './useAdminAction.ts';

const SOLVENCY_KEY = ['adminSolvency'];

/**
 * Accountants: proof of solvency. Per currency, what the chains say we hold (deposit addresses, hot wallet, cold
 * address) against what customers are owed, the surplus and whether it is covered; the report as a CSV download;
 * and the newest published Merkle root of liabilities, with a button to publish a new one.
 */
export function AdminSolvency() {
  const { t } = useTranslation();
  const report = useQuery({
    queryKey: SOLVENCY_KEY,
    queryFn: () => api<SolvencyReportEntity>('admin', '/solvency'),
  });
  const { run, busy } = useAdminAction([SOLVENCY_KEY]);
  const view = report.data;
  if (!view) return null;
  const snapshot = view.snapshot;
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('admin.solvency.at', { time: new Date(view.at).toLocaleString() })}
        </Text>
        {/* A plain link: the browser downloads with the session cookie (a GET needs no CSRF token). */}
        <Anchor href={`${API.admin}/solvency.csv`} download data-testid="admin-solvency-csv">
          {t('admin.solvency.download')}
        </Anchor>
      </Group>
      <Table data-testid="admin-solvency">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.solvency.currency')}</Table.Th>
            <Table.Th>{t('admin.solvency.deposit')}</Table.Th>
            <Table.Th>{t('admin.solvency.hot')}</Table.Th>
            <Table.Th>{t('admin.solvency.cold')}</Table.Th>
            <Table.Th>{t('admin.solvency.onChain')}</Table.Th>
            <Table.Th>{t('admin.solvency.liabilities')}</Table.Th>
            <Table.Th>{t('admin.solvency.surplus')}</Table.Th>
            <Table.Th>{t('admin.solvency.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.currencies.map((c) => (
            <Table.Tr key={c.currency} data-testid={`admin-solvency-${c.currency}`}>
              <Table.Td>{c.currency.toUpperCase()}</Table.Td>
              <Table.Td>{c.by_tier?.deposit ?? '—'}</Table.Td>
              <Table.Td>{c.by_tier?.hot ?? '—'}</Table.Td>
              <Table.Td>{c.by_tier?.cold ?? '—'}</Table.Td>
              <Table.Td>{c.on_chain ?? '—'}</Table.Td>
              <Table.Td title={t('admin.solvency.breakdown', { ...c.liabilities })}>
                {c.liabilities.total}
              </Table.Td>
              <Table.Td>{c.surplus ?? '—'}</Table.Td>
              <Table.Td>
                <Status currency={c} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={5}>{t('admin.solvency.merkle')}</Title>
            <Button
              size="xs"
              loading={busy === 'snapshot'}
              onClick={() =>
                run('snapshot', 'POST', '/solvency/snapshots', undefined, t('admin.solvency.published'))
              }
              data-testid="admin-solvency-snapshot"
            >
              {t('admin.solvency.publish')}
            </Button>
          </Group>
          {snapshot ? (
            <>
              <Code block data-testid="admin-solvency-root">
                {snapshot.root}
              </Code>
              <Text size="sm" c="dimmed">
                {t('admin.solvency.snapshot', {
                  id: snapshot.id,
                  time: new Date(snapshot.created_at).toLocaleString(),
                  count: snapshot.leaf_count,
                })}
              </Text>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t('admin.solvency.noSnapshot')}
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** Solvent, insolvent, or not checked on chain (fiat, an unreadable chain), with the reason as a tooltip. */
function Status({ currency }: { currency: SolvencyCurrencyEntity }) {
  const { t } = useTranslation();
  if (currency.solvent === null)
    return (
      <Badge color="gray" variant="light" title={currency.note ?? undefined}>
        {t('admin.solvency.unchecked')}
      </Badge>
    );
  return (
    <Badge color={currency.solvent ? 'teal' : 'red'} data-solvent={currency.solvent}>
      {t(currency.solvent ? 'admin.solvency.solvent' : 'admin.solvency.insolvent')}
    </Badge>
  );
}
