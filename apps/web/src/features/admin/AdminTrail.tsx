import type { StaffActionEntity } from '@exchange/shared';
import { Button, Code, Group, Stack, Table, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';

/**
 * The staff trail: who did what, when, before and after, filtered by a staff member's email and an exact action
 * (e.g. `withdrawal.reject`). Read-only, as the server keeps it.
 */
export function AdminTrail() {
  const { t } = useTranslation();
  const [form, setForm] = useState({ staff: '', action: '' });
  const [filter, setFilter] = useState({ staff: '', action: '' });
  const trail = useQuery({
    queryKey: ['adminTrail', filter],
    queryFn: () =>
      api<StaffActionEntity[]>('admin', '/actions', {
        query: {
          limit: 100,
          ...(filter.staff ? { staff: filter.staff } : {}),
          ...(filter.action ? { action: filter.action } : {}),
        },
      }),
  });
  const field = (name: keyof typeof form) => (
    <TextInput
      label={t(`admin.trail.${name}`)}
      value={form[name]}
      onChange={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
      w={260}
    />
  );
  return (
    <Stack>
      <Group align="end">
        {field('staff')}
        {field('action')}
        <Button onClick={() => setFilter({ staff: form.staff.trim(), action: form.action.trim() })}>
          {t('admin.trail.filter')}
        </Button>
      </Group>
      <Table data-testid="admin-trail">
        <TableHead
          labels={[
            t('admin.col.time'),
            t('admin.col.staff'),
            t('admin.col.action'),
            t('admin.col.target'),
            t('admin.col.change'),
          ]}
        />
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
    </Stack>
  );
}
