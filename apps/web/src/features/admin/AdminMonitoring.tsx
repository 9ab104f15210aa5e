import {
  API,
  closeAlertSchema,
  escalateAlertSchema,
  type MonitoringAlertEntity,
  type MonitoringReportEntity,
} from '@exchange/shared';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { AdminRiskProfiles } from './AdminRiskProfiles.tsx';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

const ALERTS = ['adminMonitoringAlerts'];
const REPORT = ['adminMonitoringReport'];
const FILTERS = ['open', 'escalated', 'closed', 'all'] as const;

/**
 * Compliance: the transaction-monitoring alerts (issue 33). An open alert is closed as a false positive with the
 * reason, or escalated to a report to the financial intelligence unit; a report shows its deadline (three business
 * hours from the suspicion), suspends a pending withdrawal of the customer and downloads as JSON or XML. Below, the
 * customers' risk classes. Nothing is offered on the staff member's own account (`me`).
 */
export function AdminMonitoring({ me }: { me: string }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('open');
  const alerts = useQuery({
    queryKey: [...ALERTS, filter],
    queryFn: () =>
      api<MonitoringAlertEntity[]>('admin', '/monitoring/alerts', { query: { state: filter, limit: '200' } }),
  });
  const items = alerts.data ?? [];
  return (
    <Stack>
      <Title order={4}>{t('admin.monitoring.alerts')}</Title>
      <SegmentedControl
        value={filter}
        onChange={(v) => setFilter(v as (typeof FILTERS)[number])}
        data={FILTERS.map((f) => ({ value: f, label: t(`admin.monitoring.filter.${f}`) }))}
        data-testid="admin-monitoring-filter"
      />
      {alerts.isSuccess && items.length === 0 && <Text c="dimmed">{t('admin.monitoring.empty')}</Text>}
      <Stack data-testid="admin-monitoring-alerts">
        {items.map((a) => (
          <AlertCard key={a.id} alert={a} own={a.uid === me} />
        ))}
      </Stack>
      <AdminRiskProfiles me={me} />
    </Stack>
  );
}

function AlertCard({ alert: a, own }: { alert: MonitoringAlertEntity; own: boolean }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const { run, busy } = useAdminAction([ALERTS, ['adminRiskProfiles']]);
  return (
    <Paper withBorder p="md" data-testid="admin-monitoring-alert" data-id={a.id}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>
            {t(`admin.monitoring.rule.${a.rule}`)} · {a.eur === null ? '—' : `EUR ${a.eur}`} · {a.email} (
            {a.uid})
          </Text>
          <Group gap="xs">
            <Badge color={a.state === 'open' ? 'orange' : a.state === 'escalated' ? 'red' : 'gray'}>
              {t(`admin.monitoring.state.${a.state}`)}
            </Badge>
            <Text size="sm" c="dimmed">
              {new Date(a.created_at).toLocaleString()}
            </Text>
          </Group>
        </Group>
        <Text size="sm" data-testid="admin-monitoring-facts">
          {Object.entries(a.facts)
            .map(([k, v]) => `${k}: ${String(v)}`)
            .join(' · ')}{' '}
          · {t('admin.monitoring.operations', { ids: a.operation_ids.join(', ') })}
        </Text>
        {a.reason && <Text size="sm">{t('admin.monitoring.reason', { reason: a.reason })}</Text>}
        {own ? (
          <OwnAccountNote />
        ) : a.state === 'open' ? (
          <Group align="end">
            <Textarea
              label={t('admin.monitoring.reasonLabel')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={420}
              autosize
              data-testid="admin-monitoring-reason"
            />
            <Button
              variant="light"
              loading={busy === 'close'}
              onClick={() =>
                run(
                  'close',
                  'POST',
                  `/monitoring/alerts/${a.id}/close`,
                  { reason: text },
                  undefined,
                  closeAlertSchema,
                )
              }
              data-testid="admin-monitoring-close"
            >
              {t('admin.monitoring.close')}
            </Button>
            <Button
              color="red"
              loading={busy === 'escalate'}
              onClick={() =>
                run(
                  'escalate',
                  'POST',
                  `/monitoring/alerts/${a.id}/escalate`,
                  { narrative: text },
                  undefined,
                  escalateAlertSchema,
                )
              }
              data-testid="admin-monitoring-escalate"
            >
              {t('admin.monitoring.escalate')}
            </Button>
          </Group>
        ) : (
          a.report_id !== null && <Report id={a.report_id} />
        )}
      </Stack>
    </Paper>
  );
}

/** A report: its clock, its suspensions, the suspend form and the downloads. */
function Report({ id }: { id: number }) {
  const { t } = useTranslation();
  const [withdrawal, setWithdrawal] = useState('');
  const report = useQuery({
    queryKey: [...REPORT, String(id)],
    queryFn: () => api<MonitoringReportEntity>('admin', `/monitoring/reports/${id}`),
  });
  const { run, busy } = useAdminAction([[...REPORT, String(id)]]);
  const r = report.data;
  if (!r) return null;
  const base = `${API.admin}/monitoring/reports/${id}/export`;
  return (
    <Stack gap="xs" data-testid="admin-monitoring-report">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('admin.monitoring.report', { id: r.id })}
        </Text>
        <Badge color={r.overdue ? 'red' : 'blue'} data-testid="admin-monitoring-due">
          {t(r.overdue ? 'admin.monitoring.overdue' : 'admin.monitoring.due', {
            time: new Date(r.due_at).toLocaleString(),
          })}
        </Badge>
        {r.exported_at && (
          <Text size="sm" c="dimmed">
            {t('admin.monitoring.exported', { time: new Date(r.exported_at).toLocaleString() })}
          </Text>
        )}
      </Group>
      {r.suspensions.map((s) => (
        <Text key={`${s.withdrawal_id}-${s.until}`} size="sm">
          {t('admin.monitoring.suspended', {
            id: s.withdrawal_id,
            until: new Date(s.until).toLocaleString(),
          })}
        </Text>
      ))}
      <Group align="end">
        <TextInput
          label={t('admin.monitoring.withdrawalId')}
          value={withdrawal}
          onChange={(e) => setWithdrawal(e.currentTarget.value.replace(/\D/g, ''))}
          w={200}
          data-testid="admin-monitoring-withdrawal"
        />
        <Button
          color="orange"
          variant="light"
          loading={busy === 'suspend'}
          disabled={withdrawal === ''}
          onClick={() =>
            run('suspend', 'POST', `/monitoring/reports/${id}/suspend`, { withdrawal_id: Number(withdrawal) })
          }
          data-testid="admin-monitoring-suspend"
        >
          {t('admin.monitoring.suspend')}
        </Button>
        {/* Plain links: the browser downloads with the session cookie (a GET needs no CSRF token). */}
        <Anchor href={`${base}?format=json`} download data-testid="admin-monitoring-export-json">
          {t('admin.monitoring.exportJson')}
        </Anchor>
        <Anchor href={`${base}?format=xml`} download data-testid="admin-monitoring-export-xml">
          {t('admin.monitoring.exportXml')}
        </Anchor>
      </Group>
    </Stack>
  );
}
