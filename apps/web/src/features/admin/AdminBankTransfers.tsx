import { type AdminBankTransfer, assignBankTransferSchema, returnBankTransferSchema } from '@exchange/shared';
import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useAdminAction } from './useAdminAction.ts';

const QUEUE = ['adminBankTransfers'];

/**
 * Compliance and accountants: incoming SEPA transfers no reference matched (none, a wrong one, an account not a
 * verified business). Each is credited to the account the operator names (its uid; never their own: the server
 * refuses it) or marked for return to the sender, with a reason for the trail.
 */
export function AdminBankTransfers({ me }: { me: string }) {
  const { t } = useTranslation();
  const queue = useQuery({
    queryKey: QUEUE,
    queryFn: () => api<AdminBankTransfer[]>('admin', '/bank_transfers?state=queued&limit=100'),
  });
  return (
    <Stack>
      <Title order={4}>{t('admin.bankTransfers.queue')}</Title>
      {queue.data?.length === 0 && <Text c="dimmed">{t('admin.bankTransfers.empty')}</Text>}
      <Stack data-testid="admin-bank-transfer-queue">
        {(queue.data ?? []).map((b) => (
          <Transfer key={b.id} transfer={b} me={me} />
        ))}
      </Stack>
    </Stack>
  );
}

function Transfer({ transfer: b, me }: { transfer: AdminBankTransfer; me: string }) {
  const { t } = useTranslation();
  const [uid, setUid] = useState('');
  const [reason, setReason] = useState('');
  const { run, busy } = useAdminAction([QUEUE]);
  const own = uid.trim().toUpperCase() === me;
  return (
    <Paper withBorder p="md" data-testid="admin-bank-transfer" data-id={b.id}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>
            {b.amount} {b.currency} · {b.debtor_name} · {b.debtor_iban}
          </Text>
          <Text size="sm" c="dimmed">
            {b.booking_date} · {b.bank_transaction_id}
          </Text>
        </Group>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {t('admin.bankTransfers.remittance', {
            text: b.remittance_information ?? '—',
            reference: b.creditor_reference ?? '—',
          })}
        </Text>
        {b.queue_reason && (
          <Group gap="xs">
            <Badge color="orange" variant="light">
              {t(`admin.bankTransfers.reason.${b.queue_reason}`)}
            </Badge>
          </Group>
        )}
        <Group align="end">
          <TextInput
            label={t('admin.bankTransfers.uid')}
            value={uid}
            onChange={(e) => setUid(e.currentTarget.value)}
            w={200}
            data-testid="bank-transfer-uid"
          />
          <TextInput
            label={t('admin.bankTransfers.reasonLabel')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            w={320}
            data-testid="bank-transfer-reason"
          />
          <Button
            color="teal"
            disabled={own}
            loading={busy === 'assign'}
            onClick={() =>
              run(
                'assign',
                'POST',
                `/bank_transfers/${b.id}/assign`,
                { uid: uid.trim().toUpperCase(), reason },
                undefined,
                assignBankTransferSchema,
              )
            }
            data-testid="bank-transfer-assign"
          >
            {t('admin.bankTransfers.assign')}
          </Button>
          <Button
            color="red"
            variant="light"
            loading={busy === 'return'}
            onClick={() =>
              run(
                'return',
                'POST',
                `/bank_transfers/${b.id}/return`,
                { reason },
                undefined,
                returnBankTransferSchema,
              )
            }
            data-testid="bank-transfer-return"
          >
            {t('admin.bankTransfers.return')}
          </Button>
        </Group>
        {own && (
          <Text size="sm" c="red">
            {t('admin.user.own_account')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
