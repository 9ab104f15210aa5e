import type { StaffPermission } from '@exchange/shared';
import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  PinInput,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { errorCodes, errorText } from '../auth/components/errors.ts';
import { AdminAdjustments } from './AdminAdjustments.tsx';
import { AdminBankTransfers } from './AdminBankTransfers.tsx';
import { AdminClosures } from './AdminClosures.tsx';
import { AdminCustody } from './AdminCustody.tsx';
import { AdminDashboard } from './AdminDashboard.tsx';
import { AdminKyc } from './AdminKyc.tsx';
import { AdminLedger } from './AdminLedger.tsx';
import { AdminMarkets } from './AdminMarkets.tsx';
import { AdminMonitoring } from './AdminMonitoring.tsx';
import { AdminNetworks } from './AdminNetworks.tsx';
import { AdminSanctions } from './AdminSanctions.tsx';
import { AdminSolvency } from './AdminSolvency.tsx';
import { AdminTrail } from './AdminTrail.tsx';
import { AdminTravelRule } from './AdminTravelRule.tsx';
import { AdminUsers } from './AdminUsers.tsx';
import { AdminWithdrawals } from './AdminWithdrawals.tsx';

interface StaffMe {
  uid: string;
  email: string;
  role: string;
  permissions: StaffPermission[];
  step_up_until: string | null;
}

/** The signed-in staff member; a customer gets 403 and sees nothing of the console. */
export const STAFF_ME_KEY = ['adminMe'];

/**
 * `/admin`: the operator console. The server decides everything (role, two-factor, step-up); this screen asks
 * for a fresh authenticator code when the step-up has lapsed, and shows the tabs the role may use. Each panel gets
 * the staff member's uid: no decision is offered on an item that concerns their own account.
 */
export function AdminPage() {
  const { t } = useTranslation();
  const me = useQuery({
    queryKey: STAFF_ME_KEY,
    queryFn: () => api<StaffMe>('admin', '/me'),
    retry: false,
    refetchInterval: 30_000,
  });
  if (me.isPending) return null;
  if (me.isError)
    return (
      <Container size="sm" py="xl">
        <Alert color="red" data-testid="admin-refused">
          {errorText(t, me.error)}
        </Alert>
      </Container>
    );
  const staff = me.data;
  const active = staff.step_up_until !== null && new Date(staff.step_up_until).getTime() > Date.now();
  const may = (p: StaffPermission) => staff.permissions.includes(p);
  // The tabs this role may use, in order; the first one opens.
  const tabs = (
    [
      ['dashboard', 'metrics.read', () => <AdminDashboard />],
      [
        'users',
        'users.read',
        () => (
          <AdminUsers
            me={staff.uid}
            canManage={may('users.manage')}
            canReadStatements={may('statements.read')}
          />
        ),
      ],
      ['kyc', 'kyc.review', () => <AdminKyc me={staff.uid} />],
      ['closures', 'users.read', () => <AdminClosures me={staff.uid} />],
      [
        'adjustments',
        'adjustments.propose',
        () => (
          <AdminAdjustments
            me={{ uid: staff.uid, email: staff.email }}
            canApprove={may('adjustments.approve')}
          />
        ),
      ],
      ['markets', 'markets.manage', () => <AdminMarkets />],
      ['networks', 'markets.manage', () => <AdminNetworks />],
      ['ledger', 'ledger.read', () => <AdminLedger />],
      ['solvency', 'ledger.read', () => <AdminSolvency />],
      // Accountants read the wallet tiers; technicians, who keep the network settings, also set the bounds.
      [
        'custody',
        ['ledger.read', 'markets.manage'],
        () => <AdminCustody canManage={may('markets.manage')} />,
      ],
      [
        'withdrawals',
        'withdrawals.review',
        () => <AdminWithdrawals me={staff.uid} canSetLimits={may('withdrawals.limits')} />,
      ],
      ['bankTransfers', 'bank_transfers.review', () => <AdminBankTransfers me={staff.uid} />],
      ['sanctions', 'sanctions.review', () => <AdminSanctions me={staff.uid} />],
      ['monitoring', 'monitoring.review', () => <AdminMonitoring me={staff.uid} />],
      ['travelRule', 'travel_rule.review', () => <AdminTravelRule me={staff.uid} />],
      ['trail', 'trail.read', () => <AdminTrail />],
    ] as const
  )
    .filter(([, permission]) => ([] as StaffPermission[]).concat(permission).some(may))
    .map(([value, , render]) => ({ value, panel: render() }));
  return (
    <Container size="xl" py="md">
      <Stack>
        <Group justify="space-between">
          <Title order={2}>{t('admin.title')}</Title>
          <Group>
            <Badge data-testid="admin-role">{t('admin.role', { role: staff.role })}</Badge>
            {active && staff.step_up_until && (
              <Text size="sm" c="dimmed">
                {t('admin.stepUp.until', { time: new Date(staff.step_up_until).toLocaleTimeString() })}
              </Text>
            )}
          </Group>
        </Group>
        {!active ? (
          <StepUp />
        ) : (
          <Tabs defaultValue={tabs[0]?.value} keepMounted={false}>
            <Tabs.List>
              {tabs.map((tab) => (
                <Tabs.Tab key={tab.value} value={tab.value}>
                  {t(`admin.tab.${tab.value}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {tabs.map((tab) => (
              <Tabs.Panel key={tab.value} value={tab.value} pt="md">
                {tab.panel}
              </Tabs.Panel>
            ))}
          </Tabs>
        )}
      </Stack>
    </Container>
  );
}

function StepUp() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await api('admin', '/step_up', { method: 'POST', body: { otp_code: code } });
      await client.invalidateQueries({ queryKey: STAFF_ME_KEY });
    } catch (err) {
      toast.error(errorText(t, err));
      if (errorCodes(err).length > 0) setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="lg" maw={420}>
      <Stack>
        <Title order={4}>{t('admin.stepUp.title')}</Title>
        <Text size="sm">{t('admin.stepUp.body')}</Text>
        <PinInput
          length={6}
          type="number"
          value={code}
          onChange={setCode}
          aria-label={t('admin.stepUp.code')}
          data-testid="admin-step-up-code"
          oneTimeCode
        />
        <Button onClick={submit} loading={busy} disabled={code.length !== 6}>
          {t('admin.stepUp.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
