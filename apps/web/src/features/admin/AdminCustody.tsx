import type { CustodyBalanceEntity, CustodyNetworkEntity, CustodyViewEntity } from '@exchange/shared';
import { Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { CustodyAlerts, CustodyRefusals, CustodyTransfers } from './CustodyActivity.tsx';
import { CustodyLimitsForm } from './CustodyLimitsForm.tsx';
import { CUSTODY_KEY } from './custodyQuery.ts';

/**
 * Wallet tiers: per network the hot wallet's balances read from the chain against their bounds (below the minimum
 * the refill needed; above the maximum the excess the wallet moves to the cold address), the cold address, the
 * open alerts, recent sweeps and cold transfers, and what the signer refused. Technicians (`canManage`) change the
 * bounds and resolve alerts; accountants read.
 */
export function AdminCustody({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const custody = useQuery({
    queryKey: CUSTODY_KEY,
    queryFn: () => api<CustodyViewEntity>('admin', '/custody'),
  });
  const view = custody.data;
  if (!view) return null;
  return (
    <Stack data-testid="admin-custody">
      <Text size="sm" c="dimmed">
        {t('admin.custody.at', { time: new Date(view.at).toLocaleString() })}
      </Text>
      {view.networks.map((network) => (
        <NetworkTiers key={network.blockchain_key} network={network} canManage={canManage} />
      ))}
      <CustodyAlerts alerts={view.alerts} canManage={canManage} />
      <CustodyTransfers transfers={view.transfers} />
      <CustodyRefusals refusals={view.refusals} />
    </Stack>
  );
}

/** One network: its hot and cold addresses and a row per currency. */
function NetworkTiers({ network, canManage }: { network: CustodyNetworkEntity; canManage: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Paper withBorder p="md" data-testid={`admin-custody-${network.blockchain_key}`}>
      <Stack gap="xs">
        <Title order={5}>{network.blockchain_key}</Title>
        <Group gap="xs">
          <Text size="sm">{t('admin.custody.hot')}:</Text>
          {network.hot_address ? (
            <Code>{network.hot_address}</Code>
          ) : (
            <Text size="sm" c="red">
              {network.error}
            </Text>
          )}
        </Group>
        <Group gap="xs">
          <Text size="sm">{t('admin.custody.cold')}:</Text>
          {network.cold_address ? (
            <Code>{network.cold_address}</Code>
          ) : (
            <Text size="sm" c="orange" data-testid="admin-custody-cold-missing">
              {t('admin.custody.coldMissing')}
            </Text>
          )}
        </Group>
        <Table>
          <TableHead
            labels={[
              t('admin.custody.currency'),
              t('admin.custody.balance'),
              t('admin.custody.min'),
              t('admin.custody.max'),
              t('admin.custody.state'),
              '',
            ]}
          />
          <Table.Tbody>
            {network.currencies.map((line) =>
              editing === line.currency ? (
                <Table.Tr key={line.currency}>
                  <Table.Td colSpan={6}>
                    <CustodyLimitsForm
                      network={network.blockchain_key}
                      line={line}
                      onDone={() => setEditing(null)}
                    />
                  </Table.Td>
                </Table.Tr>
              ) : (
                <Table.Tr
                  key={line.currency}
                  data-testid={`admin-custody-${network.blockchain_key}-${line.currency}`}
                >
                  <Table.Td>{line.currency.toUpperCase()}</Table.Td>
                  <Table.Td>{line.balance ?? '—'}</Table.Td>
                  <Table.Td>{line.hot_min ?? t('admin.custody.none')}</Table.Td>
                  <Table.Td>{line.hot_max ?? t('admin.custody.none')}</Table.Td>
                  <Table.Td>
                    <HotState line={line} />
                  </Table.Td>
                  <Table.Td>
                    {canManage && (
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() => setEditing(line.currency)}
                        disabled={editing !== null}
                      >
                        {t('admin.custody.edit')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ),
            )}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

/** OK, Low (with the refill), Above max (with the excess going to cold), or unreadable (the chain's error). */
function HotState({ line }: { line: CustodyBalanceEntity }) {
  const { t } = useTranslation();
  const unit = line.currency.toUpperCase();
  const [color, text] = {
    ok: ['teal', t('admin.custody.ok')],
    low: ['red', t('admin.custody.low', { amount: `${line.refill} ${unit}` })],
    above_max: ['orange', t('admin.custody.aboveMax', { amount: `${line.excess} ${unit}` })],
    unknown: ['gray', t('admin.custody.unknown')],
  }[line.state];
  return (
    <Badge color={color} variant="light" tt="none" data-state={line.state} title={line.error ?? undefined}>
      {text}
    </Badge>
  );
}
