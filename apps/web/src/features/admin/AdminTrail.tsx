import type { StaffActionEntity } from '@exchange/shared';
import { Code, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';

/** The staff trail: who did what, when, before and after. Read-only, as the server keeps it. */
export function AdminTrail() {
  const { t } = useTranslation();
  const trail = useQuery({
    queryKey: ['adminTrail'],
    queryFn: () => api<StaffActionEntity[]>('admin', '/actions', { query: { limit: 100 } }),
  });
  return (
    <Table data-testid="admin-trail">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('admin.col.time')}</Table.Th>
          <Table.Th>{t('admin.col.staff')}</Table.Th>
          <Table.Th>{t('admin.col.action')}</Table.Th>
          <Table.Th>{t('admin.col.target')}</Table.Th>
          <Table.Th>{t('admin.col.change')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(trail.data ?? []).map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{new Date(a.created_at).toLocaleString()}</Table.Td>
            <Table.Td>
              {a.staff} ({a.role})
            </Table.Td>
            <Table.Td>{a.action}</Table.Td>
            <Table.Td>{a.target}</Table.Td>
            <Table.Td>
              <Code>{JSON.stringify({ before: a.before, after: a.after })}</Code>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
