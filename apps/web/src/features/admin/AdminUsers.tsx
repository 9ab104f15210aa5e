import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { AdminStatement } from './AdminStatement.tsx';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

interface UserRow {
  uid: string;
  email: string;
  role: string;
  level: number;
  state: string;
}

interface UserDetail extends UserRow {
  otp: boolean;
  balances: { currency: string; balance: string; locked: string }[];
  sessions: unknown[];
  labels: { key: string; value: string }[];
}

/**
 * Support's view: find a user, see their account, lock or unlock it, reset its 2FA, end its sessions; never their
 * own (`me`).
 */
export function AdminUsers({
  me,
  canManage,
  canReadStatements,
}: {
  me: string;
  canManage: boolean;
  canReadStatements: boolean;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const list = useQuery({
    queryKey: ['adminUsers', q],
    queryFn: () => api<UserRow[]>('admin', '/users', { query: { q } }),
  });
  const detail = useQuery({
    queryKey: ['adminUser', selected],
    queryFn: () => api<UserDetail>('admin', `/users/${selected}`),
    enabled: selected !== null,
  });
  const { run, busy } = useAdminAction([
    ['adminUsers', q],
    ['adminUser', selected ?? ''],
  ]);
  const user = detail.data;
  // Every currency can have a statement, also one the user holds nothing of now.
  const currencies =
    useQuery({
      queryKey: ['publicCurrencies'],
      queryFn: () => api<{ id: string }[]>('peatio', '/public/currencies'),
      enabled: canReadStatements,
    }).data?.map((c) => c.id) ?? [];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Stack>
        <TextInput label={t('admin.users.search')} value={q} onChange={(e) => setQ(e.currentTarget.value)} />
        <Table highlightOnHover data-testid="admin-users">
          <TableHead labels={[t('admin.col.email'), t('admin.col.level'), t('admin.col.state')]} />
          <Table.Tbody>
            {(list.data ?? []).map((u) => (
              <Table.Tr key={u.uid} onClick={() => setSelected(u.uid)} style={{ cursor: 'pointer' }}>
                <Table.Td>
                  <Button variant="subtle" size="compact-sm" onClick={() => setSelected(u.uid)}>
                    {u.email}
                  </Button>
                </Table.Td>
                <Table.Td>{u.level}</Table.Td>
                <Table.Td>{u.state}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
      {user && (
        <Paper withBorder p="md" data-testid="admin-user">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600}>{user.email}</Text>
              <Badge color={user.state === 'active' ? 'teal' : 'red'}>{user.state}</Badge>
            </Group>
            <Text size="sm">
              {user.uid} · level {user.level} · {user.role} · 2FA {user.otp ? 'on' : 'off'}
            </Text>
            <Text size="sm">{user.labels.map((l) => `${l.key}: ${l.value}`).join(', ')}</Text>
            <Text size="sm" fw={600}>
              {t('admin.users.balances')}
            </Text>
            {user.balances.map((b) => (
              <Text size="sm" key={b.currency}>
                {b.currency.toUpperCase()} {b.balance} ({b.locked} locked)
              </Text>
            ))}
            <Text size="sm">{t('admin.users.sessions', { count: user.sessions.length })}</Text>
            {canReadStatements && (
              <>
                <Text size="sm" fw={600}>
                  {t('admin.statement.title')}
                </Text>
                <AdminStatement
                  key={user.uid}
                  uid={user.uid}
                  currencies={currencies.length > 0 ? currencies : user.balances.map((b) => b.currency)}
                />
              </>
            )}
            {canManage && user.uid === me && <OwnAccountNote />}
            {canManage && user.uid !== me && (
              <Stack gap="xs">
                <TextInput
                  label={t('admin.reason')}
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                />
                <Group>
                  {user.state === 'active' ? (
                    <Button
                      color="red"
                      loading={busy === 'lock'}
                      onClick={() => run('lock', 'POST', `/users/${user.uid}/lock`, { reason })}
                    >
                      {t('admin.users.lock')}
                    </Button>
                  ) : (
                    <Button
                      loading={busy === 'unlock'}
                      onClick={() => run('unlock', 'POST', `/users/${user.uid}/unlock`, { reason })}
                    >
                      {t('admin.users.unlock')}
                    </Button>
                  )}
                  {user.otp && (
                    <Button
                      color="orange"
                      variant="light"
                      loading={busy === 'reset2fa'}
                      onClick={() => run('reset2fa', 'POST', `/users/${user.uid}/reset_2fa`, { reason })}
                    >
                      {t('admin.users.reset2fa')}
                    </Button>
                  )}
                  <Button
                    variant="default"
                    loading={busy === 'end'}
                    onClick={() => run('end', 'DELETE', `/users/${user.uid}/sessions`)}
                  >
                    {t('admin.users.endSessions')}
                  </Button>
                </Group>
              </Stack>
            )}
          </Stack>
        </Paper>
      )}
    </SimpleGrid>
  );
}
