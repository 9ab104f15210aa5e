import {
  type AdminWithdrawalEntity,
  rejectWithdrawalSchema,
  resolveWithdrawalSchema,
  type WithdrawLimitEntity,
  withdrawLimitSchema,
} from '@exchange/shared';
import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

const QUEUE = ['adminWithdrawals'];
const LIMITS = ['adminWithdrawLimits'];

/**
 * Compliance and accountants: withdrawals waiting for review (approve, or reject with a reason the user sees),
 * errored ones after checking the chain (sent with its txid, or never left), and the limits per level and currency.
 * No decision is offered on a withdrawal from or to the staff member's own account (`me`).
 */
export function AdminWithdrawals({ me, canSetLimits }: { me: string; canSetLimits: boolean }) {
  const { t } = useTranslation();
  const list = (state: 'under_review' | 'errored') =>
    api<AdminWithdrawalEntity[]>('admin', `/withdrawals?state=${state}&limit=100`);
  const queue = useQuery({ queryKey: [...QUEUE, 'under_review'], queryFn: () => list('under_review') });
  const errored = useQuery({ queryKey: [...QUEUE, 'errored'], queryFn: () => list('errored') });
  return (
    <Stack>
      <Title order={4}>{t('admin.withdrawals.queue')}</Title>
      {queue.data?.length === 0 && <Text c="dimmed">{t('admin.withdrawals.empty')}</Text>}
      <Stack data-testid="admin-withdrawal-queue">
        {(queue.data ?? []).map((w) => (
          <Withdrawal key={w.id} withdrawal={w} own={w.uid === me || w.recipient_uid === me} />
        ))}
      </Stack>
      <Title order={4}>{t('admin.withdrawals.errored')}</Title>
      {errored.data?.length === 0 && <Text c="dimmed">{t('admin.withdrawals.noErrored')}</Text>}
      <Stack data-testid="admin-withdrawal-errored">
        {(errored.data ?? []).map((w) => (
          <Withdrawal key={w.id} withdrawal={w} own={w.uid === me || w.recipient_uid === me} />
        ))}
      </Stack>
      {canSetLimits && <Limits />}
    </Stack>
  );
}

function Withdrawal({ withdrawal: w, own }: { withdrawal: AdminWithdrawalEntity; own: boolean }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [txid, setTxid] = useState('');
  const { run, busy } = useAdminAction([QUEUE]);
  const post = (key: string, action: string, body: unknown, schema?: ZodType) =>
    run(key, 'POST', `/withdrawals/${w.id}/${action}`, body, undefined, schema);
  return (
    <Paper withBorder p="md" data-testid="admin-withdrawal" data-id={w.id}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>
            {w.amount} {w.currency.toUpperCase()} · {w.blockchain_key} · {w.email} ({t('admin.col.level')}{' '}
            {w.level})
          </Text>
          <Text size="sm" c="dimmed">
            {new Date(w.created_at).toLocaleString()}
          </Text>
        </Group>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {t('admin.withdrawals.to', {
            address: w.rid,
            name: w.beneficiary ?? '—',
            since: w.beneficiary_activated_at ? new Date(w.beneficiary_activated_at).toLocaleString() : '—',
          })}
          {w.internal && ` · ${t('admin.withdrawals.internal')}`}
        </Text>
        <Group gap="xs">
          {w.review_reasons.map((r) => (
            <Badge key={r} color="orange" variant="light">
              {t(`admin.withdrawals.reason.${r}`)}
            </Badge>
          ))}
          {w.error && (
            <Badge color="red" variant="light">
              {w.error}
            </Badge>
          )}
        </Group>
        {own ? (
          <OwnAccountNote />
        ) : w.state === 'under_review' ? (
          <Group align="end">
            <TextInput
              label={t('admin.withdrawals.rejectReason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              w={360}
            />
            <Button color="teal" loading={busy === 'approve'} onClick={() => post('approve', 'approve', {})}>
              {t('admin.withdrawals.approve')}
            </Button>
            <Button
              color="red"
              variant="light"
              loading={busy === 'reject'}
              onClick={() => post('reject', 'reject', { reason }, rejectWithdrawalSchema)}
            >
              {t('admin.withdrawals.reject')}
            </Button>
          </Group>
        ) : (
          <Group align="end">
            <TextInput
              label={t('admin.withdrawals.txid')}
              value={txid}
              onChange={(e) => setTxid(e.currentTarget.value)}
              w={360}
            />
            <Button
              loading={busy === 'sent'}
              onClick={() => post('sent', 'resolve', { decision: 'sent', txid }, resolveWithdrawalSchema)}
            >
              {t('admin.withdrawals.sent')}
            </Button>
            <Button
              color="red"
              variant="light"
              loading={busy === 'failed'}
              onClick={() => post('failed', 'resolve', { decision: 'failed' })}
            >
              {t('admin.withdrawals.neverLeft')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Limits() {
  const { t } = useTranslation();
  const limits = useQuery({
    queryKey: LIMITS,
    queryFn: () => api<WithdrawLimitEntity[]>('admin', '/withdraw_limits'),
  });
  const { run, busy } = useAdminAction([LIMITS]);
  const [form, setForm] = useState({ level: '3', currency: 'btc', per_withdrawal: '', per_day: '' });
  const field = (name: keyof typeof form) => (
    <TextInput
      label={t(`admin.limits.${name}`)}
      value={form[name]}
      onChange={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
      w={150}
    />
  );
  const save = () =>
    run(
      'save',
      'PUT',
      '/withdraw_limits',
      {
        level: form.level,
        currency: form.currency.trim().toLowerCase(),
        per_withdrawal: form.per_withdrawal.trim() || null,
        per_day: form.per_day.trim() || null,
      },
      undefined,
      withdrawLimitSchema,
    );
  return (
    <Stack>
      <Title order={4}>{t('admin.limits.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('admin.limits.help')}
      </Text>
      <Paper withBorder p="md">
        <Group align="end">
          {field('level')}
          {field('currency')}
          {field('per_withdrawal')}
          {field('per_day')}
          <Button loading={busy === 'save'} onClick={save}>
            {t('admin.limits.save')}
          </Button>
        </Group>
      </Paper>
      <Table data-testid="admin-withdraw-limits">
        <TableHead
          labels={[
            t('admin.limits.level'),
            t('admin.limits.currency'),
            t('admin.limits.per_withdrawal'),
            t('admin.limits.per_day'),
          ]}
        />
        <Table.Tbody>
          {(limits.data ?? []).map((l) => (
            <Table.Tr key={`${l.level}:${l.currency}`}>
              <Table.Td>{l.level}</Table.Td>
              <Table.Td>{l.currency.toUpperCase()}</Table.Td>
              <Table.Td>{l.per_withdrawal ?? '—'}</Table.Td>
              <Table.Td>{l.per_day ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
