import type { CustodyAlertEntity, CustodyRefusalEntity, CustodyTransferEntity } from '@exchange/shared';
import { Anchor, Badge, Button, Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TableHead } from '../../components/TableHead.tsx';
import { CUSTODY_KEY } from './custodyQuery.ts';
import { useAdminAction } from './useAdminAction.ts';

const when = (iso: string) => new Date(iso).toLocaleString();

/** A titled panel with its table, or a line saying there is nothing. */
function Section({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={5}>{title}</Title>
        {empty === null ? (
          children
        ) : (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The open chain alerts (hot wallet low with its refill, cold address missing, a failed cold transfer, the
 * watcher's), each resolvable by technicians once dealt with. One still true is raised again by the wallet.
 */
export function CustodyAlerts({ alerts, canManage }: { alerts: CustodyAlertEntity[]; canManage: boolean }) {
  const { t } = useTranslation();
  const { run, busy } = useAdminAction([CUSTODY_KEY]);
  return (
    <Section title={t('admin.custody.alerts')} empty={alerts.length ? null : t('admin.custody.noAlerts')}>
      <Table data-testid="admin-custody-alerts">
        <TableHead
          labels={[
            t('admin.custody.network'),
            t('admin.custody.kind'),
            t('admin.custody.detail'),
            t('admin.custody.time'),
            '',
          ]}
        />
        <Table.Tbody>
          {alerts.map((a) => (
            <Table.Tr key={a.id} data-testid="admin-custody-alert">
              <Table.Td>{a.network}</Table.Td>
              <Table.Td>
                <Badge color="red" variant="light" tt="none">
                  {a.kind}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {Object.entries(a.detail)
                    .map(([key, value]) => `${key}: ${String(value)}`)
                    .join(' · ')}
                </Text>
              </Table.Td>
              <Table.Td>{when(a.created_at)}</Table.Td>
              <Table.Td>
                {canManage && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    loading={busy === `resolve${a.id}`}
                    onClick={() =>
                      run(
                        `resolve${a.id}`,
                        'POST',
                        `/custody/alerts/${a.id}/resolve`,
                        undefined,
                        t('admin.custody.resolved'),
                      )
                    }
                  >
                    {t('admin.custody.resolve')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

const STATE_COLOR = { pending: 'yellow', confirmed: 'teal', failed: 'red' } as const;

/** The latest sweeps to the hot wallet, gas top-ups and hot → cold transfers, with the explorer's link. */
export function CustodyTransfers({ transfers }: { transfers: CustodyTransferEntity[] }) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('admin.custody.transfers')}
      empty={transfers.length ? null : t('admin.custody.noTransfers')}
    >
      <Table data-testid="admin-custody-transfers">
        <TableHead
          labels={[
            t('admin.custody.time'),
            t('admin.custody.network'),
            t('admin.custody.kind'),
            t('admin.custody.amount'),
            t('admin.custody.transferState'),
            t('admin.custody.txid'),
          ]}
        />
        <Table.Tbody>
          {transfers.map((x) => (
            <Table.Tr key={x.id}>
              <Table.Td>{when(x.created_at)}</Table.Td>
              <Table.Td>{x.network}</Table.Td>
              <Table.Td title={`${x.from_addresses.join(', ')} → ${x.to_address}`}>
                {t(`admin.custody.kind.${x.kind}`)}
              </Table.Td>
              <Table.Td>
                {x.amount} {x.currency.toUpperCase()}
              </Table.Td>
              <Table.Td>
                <Badge color={STATE_COLOR[x.state]} variant="light" tt="none">
                  {x.state}
                </Badge>
              </Table.Td>
              <Table.Td>
                {x.explorer_link ? (
                  <Anchor href={x.explorer_link} target="_blank" rel="noreferrer" size="sm">
                    {x.txid.slice(0, 16)}…
                  </Anchor>
                ) : (
                  <Code>{x.txid}</Code>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

/** What the signer refused lately, with its reason: a policy at work, or something to look into. */
export function CustodyRefusals({ refusals }: { refusals: CustodyRefusalEntity[] }) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('admin.custody.refusals')}
      empty={refusals.length ? null : t('admin.custody.noRefusals')}
    >
      <Table data-testid="admin-custody-refusals">
        <TableHead
          labels={[
            t('admin.custody.time'),
            t('admin.custody.network'),
            t('admin.custody.purpose'),
            t('admin.custody.reference'),
            t('admin.custody.amount'),
            t('admin.custody.reason'),
          ]}
        />
        <Table.Tbody>
          {refusals.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{when(r.created_at)}</Table.Td>
              <Table.Td>{r.network}</Table.Td>
              <Table.Td>{r.purpose}</Table.Td>
              <Table.Td>{r.reference ?? '—'}</Table.Td>
              <Table.Td title={r.destination ?? undefined}>
                {r.amount === null ? '—' : `${r.amount} ${(r.currency ?? '').toUpperCase()}`}
              </Table.Td>
              <Table.Td>{r.reason ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}
