import { Badge, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '../../api/user.ts';
import { AntiPhishingModal } from './AntiPhishingModal.tsx';
import { ChangePasswordModal } from './ChangePasswordModal.tsx';
import { KYC_COLOR, kycStatus } from './kyc.ts';
import { TwoFactorModal } from './TwoFactorModal.tsx';

interface Row {
  key: string;
  title: string;
  description: string;
  action: ReactNode;
}

const hasLabel = (user: User, key: string) =>
  user.labels?.some((l) => l.key === key && l.value === 'verified') ?? false;

/** Settings › Security Settings (docs/accounts.md#screens): password, verification, phone, 2FA, API tokens. */
export function SecuritySection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'password' | 'enable' | 'disable' | 'phrase' | null>(null);
  const status = kycStatus(user);
  const verified = (ok: boolean) => (
    <Badge color={ok ? 'teal' : 'gray'} variant="light">
      {t(ok ? 'identity.security.verified' : 'identity.security.notVerified')}
    </Badge>
  );

  const rows: Row[] = [
    {
      key: 'password',
      title: t('identity.security.password'),
      description: t('identity.security.passwordHint'),
      action: (
        <Button variant="default" onClick={() => setDialog('password')} data-testid="change-password">
          {t('identity.security.change')}
        </Button>
      ),
    },
    {
      key: 'account',
      title: t('identity.security.account'),
      description: t('identity.security.accountHint'),
      action:
        status === 'pending' || status === 'resubmit' ? (
          <Button component={Link} to="/sumsub-kyc" variant="default">
            {t('identity.security.verify')}
          </Button>
        ) : (
          <Badge color={KYC_COLOR[status]} variant="light">
            {t(`identity.kyc.${status}`)}
          </Badge>
        ),
    },
    {
      key: 'email',
      title: t('identity.security.email'),
      description: user.email,
      action: verified(hasLabel(user, 'email')),
    },
    {
      key: 'phone',
      title: t('identity.security.phone'),
      description: t('identity.security.phoneHint'),
      action: (
        <Group gap="xs">
          {verified(hasLabel(user, 'phone'))}
          <Button component={Link} to="/update-number/phone" variant="default" data-testid="change-phone">
            {t('identity.security.change')}
          </Button>
        </Group>
      ),
    },
    {
      key: 'otp',
      title: t('identity.security.otp'),
      description: t(user.otp ? 'identity.security.otpOn' : 'identity.security.otpOff'),
      action: user.otp ? (
        <Button color="red" variant="light" onClick={() => setDialog('disable')} data-testid="otp-toggle">
          {t('identity.security.disable')}
        </Button>
      ) : (
        <Button onClick={() => setDialog('enable')} data-testid="otp-toggle">
          {t('identity.security.enable')}
        </Button>
      ),
    },
  ];
  rows.push({
    key: 'phrase',
    title: t('identity.antiPhishing.title'),
    description: t(user.anti_phishing ? 'identity.antiPhishing.on' : 'identity.antiPhishing.off'),
    action: (
      <Button variant="default" onClick={() => setDialog('phrase')} data-testid="anti-phishing">
        {t(user.anti_phishing ? 'identity.security.change' : 'identity.antiPhishing.set')}
      </Button>
    ),
  });
  if (user.otp) {
    rows.push({
      key: 'api',
      title: t('identity.security.apiTokens'),
      description: t('identity.security.apiTokensHint'),
      action: (
        <Button component={Link} to="/api-tokens" variant="default" data-testid="api-tokens-link">
          {t('identity.security.manage')}
        </Button>
      ),
    });
  }

  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={3}>{t('identity.security.title')}</Title>
        {rows.map((row, index) => (
          <Fragment key={row.key}>
            {index > 0 && <Divider />}
            <Group justify="space-between" wrap="nowrap" data-testid={`security-${row.key}`}>
              <Stack gap={2}>
                <Text fw={600}>{row.title}</Text>
                <Text size="sm" c="dimmed">
                  {row.description}
                </Text>
              </Stack>
              {row.action}
            </Group>
          </Fragment>
        ))}
      </Stack>
      {dialog === 'password' && <ChangePasswordModal onClose={() => setDialog(null)} />}
      {dialog === 'phrase' && <AntiPhishingModal onClose={() => setDialog(null)} />}
      {(dialog === 'enable' || dialog === 'disable') && (
        <TwoFactorModal mode={dialog} onClose={() => setDialog(null)} />
      )}
    </Paper>
  );
}
