import { RISK_CLASSES, type RiskProfileEntity, setRiskClassSchema } from '@exchange/shared';
import { Badge, Button, Checkbox, Group, Select, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { useAdminAction } from './useAdminAction.ts';

const PROFILES = ['adminRiskProfiles'];

/**
 * Risk classes: the customers assessed, by review due date (or only the overdue reviews), and compliance's form to
 * set a class with the reason and the PEP status (a review: due again in a year). Never the staff member's own.
 */
export function AdminRiskProfiles({ me }: { me: string }) {
  const { t } = useTranslation();
  const [overdue, setOverdue] = useState(false);
  const profiles = useQuery({
    queryKey: [...PROFILES, overdue],
    queryFn: () =>
      api<RiskProfileEntity[]>('admin', '/monitoring/risk', { query: { overdue: String(overdue) } }),
  });
  const items = profiles.data ?? [];
  return (
    <>
      <Title order={4}>{t('admin.risk.title')}</Title>
      <Switch
        checked={overdue}
        onChange={(e) => setOverdue(e.currentTarget.checked)}
        label={t('admin.risk.overdueOnly')}
        data-testid="admin-risk-overdue"
      />
      <Table data-testid="admin-risk-profiles">
        <TableHead
          labels={[
            t('admin.risk.customer'),
            t('admin.risk.class'),
            t('admin.risk.reasons'),
            t('admin.risk.reviewDue'),
          ]}
        />
        <Table.Tbody>
          {items.map((p) => (
            <Table.Tr key={p.uid} data-testid="admin-risk-row">
              <Table.Td>
                {p.email} ({p.uid})
              </Table.Td>
              <Table.Td>
                <Badge color={p.class === 'high' ? 'red' : p.class === 'average' ? 'orange' : 'gray'}>
                  {t(`admin.risk.class.${p.class}`)}
                </Badge>
                {p.pep && <Badge ml="xs">PEP</Badge>}
              </Table.Td>
              <Table.Td>{[...p.reasons, p.note].filter(Boolean).join(', ')}</Table.Td>
              <Table.Td>
                {new Date(p.review_due).toLocaleDateString()}
                {p.overdue && (
                  <Badge color="red" ml="xs">
                    {t('admin.risk.overdue')}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {profiles.isSuccess && items.length === 0 && <Text c="dimmed">{t('admin.risk.empty')}</Text>}
      <SetRiskClass me={me} />
    </>
  );
}

function SetRiskClass({ me }: { me: string }) {
  const { t } = useTranslation();
  const [uid, setUid] = useState('');
  const [riskClass, setRiskClass] = useState<(typeof RISK_CLASSES)[number]>('average');
  const [reason, setReason] = useState('');
  const [pep, setPep] = useState(false);
  const [leftOffice, setLeftOffice] = useState('');
  const { run, busy } = useAdminAction([PROFILES]);
  const body = {
    class: riskClass,
    reason,
    pep,
    pep_left_office: pep && leftOffice ? leftOffice : null,
  };
  return (
    <Group align="end" data-testid="admin-risk-form">
      <TextInput
        label={t('admin.risk.uid')}
        value={uid}
        onChange={(e) => setUid(e.currentTarget.value.trim())}
      />
      <Select
        label={t('admin.risk.class')}
        value={riskClass}
        onChange={(v) => v && setRiskClass(v as (typeof RISK_CLASSES)[number])}
        data={RISK_CLASSES.map((c) => ({ value: c, label: t(`admin.risk.class.${c}`) }))}
        w={140}
      />
      <TextInput
        label={t('admin.risk.reason')}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
      />
      <Checkbox label="PEP" checked={pep} onChange={(e) => setPep(e.currentTarget.checked)} />
      {pep && (
        <TextInput
          label={t('admin.risk.leftOffice')}
          placeholder="YYYY-MM-DD"
          value={leftOffice}
          onChange={(e) => setLeftOffice(e.currentTarget.value.trim())}
          w={160}
        />
      )}
      <Button
        loading={busy === 'set'}
        disabled={uid === '' || uid === me}
        onClick={() => run('set', 'PUT', `/monitoring/risk/${uid}`, body, undefined, setRiskClassSchema)}
      >
        {t('admin.risk.set')}
      </Button>
    </Group>
  );
}
