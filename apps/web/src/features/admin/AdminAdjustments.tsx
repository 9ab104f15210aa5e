import { Button, Group, Paper, Stack, Table, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

interface Adjustment {
  id: number;
  uid: string;
  email: string;
  currency: string;
  amount: string;
  reason: string;
  state: string;
  proposed_by: string;
  decided_by: string | null;
}

/**
 * Accountants: propose a credit or debit; a second accountant approves or rejects it (four eyes). Nobody proposes
 * or decides one of their own account (`me`), whoever proposed it.
 */
export function AdminAdjustments({
  me,
  canApprove,
}: {
  me: { uid: string; email: string };
  canApprove: boolean;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ uid: '', currency: 'usdt', amount: '', reason: '' });
  const list = useQuery({
    queryKey: ['adminAdjustments'],
    queryFn: () => api<Adjustment[]>('admin', '/adjustments'),
  });
  const { run, busy } = useAdminAction([['adminAdjustments']]);
  const field = (name: keyof typeof form, label: string) => (
    <TextInput
      label={label}
      value={form[name]}
      onChange={(e) =>
        setForm({ ...form, [name]: e.currentTarget.value.trim() === '' ? '' : e.currentTarget.value })
      }
    />
  );
  const ownForm = form.uid.trim() === me.uid;
  const propose = async () => {
    const done = await run('propose', 'POST', '/adjustments', form, t('admin.adjustments.proposed'));
    if (done) setForm({ ...form, amount: '', reason: '' });
  };
  return (
    <Stack>
      <Paper withBorder p="md">
        <Group align="end">
          {field('uid', t('admin.adjustments.uid'))}
          {field('currency', t('admin.adjustments.currency'))}
          {field('amount', t('admin.adjustments.amount'))}
          {field('reason', t('admin.reason'))}
          <Button loading={busy === 'propose'} onClick={propose} disabled={ownForm}>
            {t('admin.adjustments.propose')}
          </Button>
        </Group>
        {ownForm && <OwnAccountNote />}
      </Paper>
      <Table data-testid="admin-adjustments">
        <TableHead
          labels={[
            t('admin.col.user'),
            t('admin.col.amount'),
            t('admin.col.reason'),
            t('admin.col.state'),
            t('admin.col.by'),
            t('admin.col.decidedBy'),
            '',
          ]}
        />
        <Table.Tbody>
          {(list.data ?? []).map((a) => (
            <Table.Tr key={a.id} data-testid="admin-adjustment" data-state={a.state}>
              <Table.Td>{a.email}</Table.Td>
              <Table.Td>
                {a.amount} {a.currency.toUpperCase()}
              </Table.Td>
              <Table.Td>{a.reason}</Table.Td>
              <Table.Td>{a.state}</Table.Td>
              <Table.Td>{a.proposed_by}</Table.Td>
              <Table.Td>{a.decided_by ?? ''}</Table.Td>
              <Table.Td>
                {a.state === 'proposed' && canApprove && a.uid === me.uid && <OwnAccountNote />}
                {a.state === 'proposed' && canApprove && a.uid !== me.uid && a.proposed_by !== me.email && (
                  <Group gap="xs">
                    <Button
                      size="compact-sm"
                      color="teal"
                      loading={busy === `a${a.id}`}
                      onClick={() => run(`a${a.id}`, 'POST', `/adjustments/${a.id}/approve`, {})}
                    >
                      {t('admin.adjustments.approve')}
                    </Button>
                    <Button
                      size="compact-sm"
                      color="red"
                      variant="light"
                      loading={busy === `r${a.id}`}
                      onClick={() => run(`r${a.id}`, 'POST', `/adjustments/${a.id}/reject`, {})}
                    >
                      {t('admin.adjustments.reject')}
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
