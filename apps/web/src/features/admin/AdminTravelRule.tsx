import {
  ADMIN_TRAVEL_RULE_FILTERS,
  type AdminTravelRuleDeposit,
  decideTravelRuleDepositSchema,
} from '@exchange/shared';
import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

const DEPOSITS = ['adminTravelRuleDeposits'];
const FILTERS = ADMIN_TRAVEL_RULE_FILTERS;
type Filter = (typeof FILTERS)[number];

/**
 * Compliance: crypto deposits from another provider that came without the originator's information (the travel
 * rule). A held one is not credited; compliance releases it (credited once) or returns it to the sender, with a
 * reason for the trail. Never on one's own account (the server and the database refuse it too).
 */
export function AdminTravelRule({ me }: { me: string }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('held');
  const deposits = useQuery({
    queryKey: [...DEPOSITS, filter],
    queryFn: () => api<AdminTravelRuleDeposit[]>('admin', `/travel_rule/deposits?state=${filter}`),
  });
  return (
    <Stack>
      <Title order={4}>{t('admin.travelRule.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('admin.travelRule.intro')}
      </Text>
      <SegmentedControl
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        data={FILTERS.map((value) => ({ value, label: t(`admin.travelRule.state.${value}`) }))}
        w="fit-content"
      />
      {deposits.data?.length === 0 && <Text c="dimmed">{t('admin.travelRule.empty')}</Text>}
      <Stack data-testid="admin-travel-rule-deposits">
        {(deposits.data ?? []).map((d) => (
          <Deposit key={d.id} deposit={d} me={me} />
        ))}
      </Stack>
    </Stack>
  );
}

function Deposit({ deposit: d, me }: { deposit: AdminTravelRuleDeposit; me: string }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const { run, busy } = useAdminAction([DEPOSITS]);
  const own = d.uid === me;
  const decide = (decision: 'release' | 'return') =>
    run(
      decision,
      'POST',
      `/travel_rule/deposits/${d.id}/${decision}`,
      { reason },
      undefined,
      decideTravelRuleDepositSchema,
    );
  return (
    <Paper withBorder p="md" data-testid="admin-travel-rule-deposit" data-id={d.id}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>
            {d.email} · {d.uid}
          </Text>
          <Badge variant="light">{t(`admin.travelRule.state.${d.status}`, { defaultValue: d.status })}</Badge>
        </Group>
        <Text size="sm">
          {t('admin.travelRule.deposit', {
            amount: d.amount,
            currency: d.currency.toUpperCase(),
            network: d.blockchain_key,
            txid: d.txid,
          })}
        </Text>
        <Text size="sm">
          {t('admin.travelRule.from', {
            from: d.from_address ?? '—',
            provider: d.provider_name ?? d.provider_id ?? t('admin.travelRule.unknownProvider'),
            address: d.address,
          })}
        </Text>
        <Text size="sm" c="dimmed" data-testid="travel-rule-record">
          {t(
            d.status === 'unchecked'
              ? 'admin.travelRule.uncheckedNote'
              : d.record
                ? 'admin.travelRule.record'
                : 'admin.travelRule.noRecord',
          )}
        </Text>
        {d.return && (
          <Text size="sm" data-testid="travel-rule-return-state">
            {t('admin.travelRule.returnState', {
              amount: d.return.amount,
              fee: d.return.fee,
              currency: d.currency.toUpperCase(),
              to: d.return.to_address,
              state: t(`admin.travelRule.returnStates.${d.return.state}`, { defaultValue: d.return.state }),
              txid: d.return.txid ?? '—',
            })}
            {d.return.error ? ` (${d.return.error})` : ''}
          </Text>
        )}
        {d.status === 'held' && d.from_address === null && (
          <Text size="sm" c="dimmed">
            {t('admin.travelRule.noSender')}
          </Text>
        )}
        {d.status === 'held' ? (
          <Group align="end">
            <TextInput
              label={t('admin.travelRule.reason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              w={360}
              disabled={own}
              data-testid="travel-rule-reason"
            />
            <Button
              color="teal"
              disabled={own}
              loading={busy === 'release'}
              onClick={() => decide('release')}
              data-testid="travel-rule-release"
            >
              {t('admin.travelRule.release')}
            </Button>
            <Button
              color="red"
              variant="light"
              disabled={own || d.from_address === null}
              loading={busy === 'return'}
              onClick={() => decide('return')}
              data-testid="travel-rule-return"
            >
              {t('admin.travelRule.return')}
            </Button>
          </Group>
        ) : (
          d.decided_at && (
            <Text size="sm" c="dimmed">
              {t('admin.travelRule.decided', {
                by: d.decided_by ?? '—',
                at: new Date(d.decided_at).toLocaleString(),
                reason: d.reason ?? '—',
              })}
            </Text>
          )
        )}
        {own && <OwnAccountNote />}
      </Stack>
    </Paper>
  );
}
