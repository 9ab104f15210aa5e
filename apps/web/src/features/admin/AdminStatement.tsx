import { API, type StatementEntity } from '@exchange/shared';
import { Anchor, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';

const PER_PAGE = 50;

/**
 * A customer's statement of account in one currency (permission `statements.read`): every movement of the
 * currency with the command that made it, its cause and reference, the change and the balances after it, oldest
 * first; and the whole statement as a CSV download.
 */
export function AdminStatement({ uid, currencies }: { uid: string; currencies: string[] }) {
  const { t } = useTranslation();
  const [currency, setCurrency] = useState<string | null>(currencies[0] ?? null);
  const [page, setPage] = useState(1);
  const statement = useQuery({
    queryKey: ['adminStatement', uid, currency, page],
    queryFn: () =>
      api<StatementEntity>('admin', `/users/${uid}/statement`, {
        query: { currency: currency ?? '', page, limit: PER_PAGE },
      }),
    enabled: currency !== null,
  });
  const data = statement.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
  return (
    <Stack gap="xs" data-testid="admin-statement">
      <Group justify="space-between" align="end">
        <Select
          label={t('admin.statement.currency')}
          data={currencies.map((c) => ({ value: c, label: c.toUpperCase() }))}
          value={currency}
          onChange={(value) => {
            setCurrency(value);
            setPage(1);
          }}
          allowDeselect={false}
          w={160}
        />
        {currency && (
          // A plain link: the browser downloads with the session cookie (a GET needs no CSRF token).
          <Anchor
            href={`${API.admin}/users/${uid}/statement.csv?currency=${encodeURIComponent(currency)}`}
            download
            data-testid="admin-statement-csv"
          >
            {t('admin.statement.download')}
          </Anchor>
        )}
      </Group>
      {data && (data.opening.balance !== '0' || data.opening.locked !== '0') && (
        <Text size="sm" c="dimmed">
          {t('admin.statement.opening', { balance: data.opening.balance, locked: data.opening.locked })}
        </Text>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table striped data-testid="admin-statement-rows">
          <TableHead
            labels={[
              t('admin.statement.command'),
              t('admin.statement.at'),
              t('admin.statement.cause'),
              t('admin.statement.ref'),
              t('admin.statement.change'),
              t('admin.statement.lockedChange'),
              t('admin.statement.balance'),
              t('admin.statement.locked'),
            ]}
          />
          <Table.Tbody>
            {(data?.rows ?? []).map((row) => (
              <Table.Tr key={`${row.command}:${row.cause}:${row.ref ?? ''}`}>
                <Table.Td>{row.command}</Table.Td>
                <Table.Td>{new Date(row.at).toLocaleString()}</Table.Td>
                <Table.Td>{t(`admin.statement.causes.${row.cause}`)}</Table.Td>
                <Table.Td>{row.ref ?? ''}</Table.Td>
                <Table.Td ta="right">{row.balance_change}</Table.Td>
                <Table.Td ta="right">{row.locked_change}</Table.Td>
                <Table.Td ta="right">{row.balance}</Table.Td>
                <Table.Td ta="right">{row.locked}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.rows.length === 0 && <NoRecords />}
      {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} size="sm" />}
    </Stack>
  );
}
