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
import { AdminDashboard } from './AdminDashboard.tsx';
import { AdminKyc } from './AdminKyc.tsx';
import { AdminLedger } from './AdminLedger.tsx';
import { AdminMarkets } from './AdminMarkets.tsx';
import { AdminNetworks } from './AdminNetworks.tsx';
import { AdminTrail } from './AdminTrail.tsx';
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
 * for a fresh authenticator code when the step-up has lapsed, and shows the tabs the role may use.
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
          <Tabs
            defaultValue={
              may('metrics.read')
                ? 'dashboard'
                : may('users.read')
                  ? 'users'
                  : may('kyc.review')
                    ? 'kyc'
                    : may('adjustments.propose')
                      ? 'adjustments'
                      : 'trail'
            }
            keepMounted={false}
          >
            <Tabs.List>
              {may('metrics.read') && <Tabs.Tab value="dashboard">{t('admin.tab.dashboard')}</Tabs.Tab>}
              {may('users.read') && <Tabs.Tab value="users">{t('admin.tab.users')}</Tabs.Tab>}
              {may('kyc.review') && <Tabs.Tab value="kyc">{t('admin.tab.kyc')}</Tabs.Tab>}
              {may('adjustments.propose') && (
                <Tabs.Tab value="adjustments">{t('admin.tab.adjustments')}</Tabs.Tab>
              )}
              {may('markets.manage') && <Tabs.Tab value="markets">{t('admin.tab.markets')}</Tabs.Tab>}
              {may('markets.manage') && <Tabs.Tab value="networks">{t('admin.tab.networks')}</Tabs.Tab>}
              {may('ledger.read') && <Tabs.Tab value="ledger">{t('admin.tab.ledger')}</Tabs.Tab>}
              {may('withdrawals.review') && (
                <Tabs.Tab value="withdrawals">{t('admin.tab.withdrawals')}</Tabs.Tab>
              )}
              {may('trail.read') && <Tabs.Tab value="trail">{t('admin.tab.trail')}</Tabs.Tab>}
            </Tabs.List>
            <Tabs.Panel value="dashboard" pt="md">
              <AdminDashboard />
            </Tabs.Panel>
            <Tabs.Panel value="users" pt="md">
              <AdminUsers canManage={may('users.manage')} />
            </Tabs.Panel>
            <Tabs.Panel value="kyc" pt="md">
              <AdminKyc />
            </Tabs.Panel>
            <Tabs.Panel value="adjustments" pt="md">
              <AdminAdjustments me={staff.email} canApprove={may('adjustments.approve')} />
            </Tabs.Panel>
            <Tabs.Panel value="markets" pt="md">
              <AdminMarkets />
            </Tabs.Panel>
            <Tabs.Panel value="networks" pt="md">
              <AdminNetworks />
            </Tabs.Panel>
            <Tabs.Panel value="ledger" pt="md">
              <AdminLedger />
            </Tabs.Panel>
            <Tabs.Panel value="withdrawals" pt="md">
              <AdminWithdrawals canSetLimits={may('withdrawals.limits')} />
            </Tabs.Panel>
            <Tabs.Panel value="trail" pt="md">
              <AdminTrail />
            </Tabs.Panel>
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
