import type { AdminClosureEntity } from '@exchange/shared';
import { Badge, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';

const FILTERS = ['open', 'for_conversion', 'closed', 'all'] as const;

/**
 * The closure queue (issue 31, part 4): closures under way, accounts listed for conversion to fiat (30 days without
 * an address for a balance) and closed accounts with their erase dates. Read-only: a conversion goes through the
 * adjustments queue (two accountants, never on their own account). `me` marks the staff member's own account.
 */
export function AdminClosures({ me }: { me: string }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('open');
  const queue = useQuery({
    queryKey: ['adminClosures', filter],
    queryFn: () => api<AdminClosureEntity[]>('admin', '/closures', { query: { state: filter } }),
  });
  const day = (at: string | null) => (at ? new Date(at).toLocaleDateString() : '—');
  const items = queue.data ?? [];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('admin.closures.hint')}
      </Text>
      <SegmentedControl
        value={filter}
        onChange={(v) => setFilter(v as (typeof FILTERS)[number])}
        data={FILTERS.map((f) => ({ value: f, label: t(`admin.closures.filter.${f}`) }))}
        data-testid="admin-closures-filter"
      />
      <Table data-testid="admin-closures">
        <TableHead
          labels={[
            t('admin.closures.user'),
            t('admin.closures.state'),
            t('admin.closures.requested'),
            t('admin.closures.due'),
            t('admin.closures.balances'),
            t('admin.closures.erase'),
          ]}
        />
        <Table.Tbody>
          {items.map((c) => (
            <Table.Tr key={c.id} data-testid="admin-closure-row">
              <Table.Td>
                {c.email} ({c.uid}){c.uid === me && <Badge ml="xs">{t('admin.closures.own')}</Badge>}
              </Table.Td>
              <Table.Td>
                {c.state}
                {c.for_conversion && (
                  <Badge color="orange" ml="xs">
                    {t('admin.closures.forConversion')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{day(c.requested_at)}</Table.Td>
              <Table.Td>{day(c.conversion_due_at)}</Table.Td>
              <Table.Td>
                {c.balances.map((b) => `${b.balance} ${b.currency.toUpperCase()}`).join(', ') || '—'}
              </Table.Td>
              <Table.Td>
                {day(c.records_erase_at)} / {day(c.correspondence_erase_at)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {queue.isSuccess && items.length === 0 && <Text c="dimmed">{t('admin.closures.empty')}</Text>}
    </Stack>
  );
}
