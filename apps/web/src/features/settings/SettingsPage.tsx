import { Container, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '../../api/user.ts';
import { asksForVerification, VerificationRequiredModal } from '../kyc/VerificationRequiredModal.tsx';
import { CloseAccountSection } from './CloseAccountSection.tsx';
import { CompanySection } from './CompanySection.tsx';
import { DevicesSection } from './DevicesSection.tsx';
import { IpWhitelistSection } from './IpWhitelistSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { SecurityLogSection } from './SecurityLogSection.tsx';
import { SecuritySection } from './SecuritySection.tsx';
import { YourDataSection } from './YourDataSection.tsx';

/**
 * Settings (`/settings`, docs/accounts.md#screens): Profile, the Company of a business account, Security Settings,
 * then the IP whitelist, Devices, the Security log, Your data and Close account (issue 31). A page that sent a user
 * below level 3 here (the card, docs/cards.md#permissions) asks for the verification-required prompt in the router
 * state; closing it
 * clears that state, so a reload does not show it again.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  if (!user) return null;
  const prompted = asksForVerification(location.state);
  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={2}>{t('identity.settings.title')}</Title>
        <ProfileSection key={user.updated_at ?? user.uid} user={user} />
        {user.account_type === 'business' && <CompanySection />}
        <SecuritySection user={user} />
        <IpWhitelistSection user={user} />
        <DevicesSection />
        <SecurityLogSection />
        <YourDataSection />
        <CloseAccountSection user={user} />
      </Stack>
      <VerificationRequiredModal
        user={user}
        opened={prompted}
        onClose={() => navigate(location.pathname, { replace: true, state: null })}
      />
    </Container>
  );
}
