import { API, LEDGER_SYSTEM_ACCOUNTS, type LedgerViewEntity } from '@exchange/shared';
import { Alert, Anchor, Group, List, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';

const COLUMNS = ['balance', 'locked', ...LEDGER_SYSTEM_ACCOUNTS, 'sum'] as const;

/**
 * Accountants: what the exchange holds per currency (users, and each system account), whether the books
 * balance (the audit of `npm run audit`), and the totals as a CSV download.
 */
export function AdminLedger() {
  const { t } = useTranslation();
  const ledger = useQuery({
    queryKey: ['adminLedger'],
    queryFn: () => api<LedgerViewEntity>('admin', '/ledger'),
  });
  const view = ledger.data;
  if (!view) return null;
  return (
    <Stack>
      <Alert
        color={view.audit.clean ? 'teal' : 'red'}
        data-testid="admin-ledger-audit"
        data-clean={view.audit.clean}
      >
        {view.audit.clean ? (
          t('admin.ledger.clean')
        ) : (
          <Stack gap="xs">
            <Text>{t('admin.ledger.failed', { count: view.audit.failures.length })}</Text>
            <List size="sm">
              {view.audit.failures.map((f) => (
                <List.Item key={`${f.rule}:${f.currency}:${f.account ?? ''}:${f.detail}`}>
                  {f.rule} · {f.currency.toUpperCase()}
                  {f.account ? ` · ${f.account}` : ''}: {f.detail}
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Alert>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('admin.ledger.at', { time: new Date(view.at).toLocaleString() })}
        </Text>
        {/* A plain link: the browser downloads with the session cookie (a GET needs no CSRF token). */}
        <Anchor href={`${API.admin}/ledger.csv`} download data-testid="admin-ledger-csv">
          {t('admin.ledger.download')}
        </Anchor>
      </Group>
      <Table data-testid="admin-ledger">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.ledger.currency')}</Table.Th>
            {COLUMNS.map((c) => (
              <Table.Th key={c}>{t(`admin.ledger.${c}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.totals.map((row) => (
            <Table.Tr key={row.currency}>
              <Table.Td>{row.currency.toUpperCase()}</Table.Td>
              {COLUMNS.map((c) => (
                <Table.Td key={c}>{row[c]}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
