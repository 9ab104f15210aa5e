import { Container, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/user.ts';
import { ProfileSection } from './ProfileSection.tsx';
import { SecuritySection } from './SecuritySection.tsx';

/** Settings (`/settings`, accounts spec §2): Profile and Security Settings. */
export function SettingsPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={2}>{t('identity.settings.title')}</Title>
        <ProfileSection key={user.updated_at ?? user.uid} user={user} />
        <SecuritySection user={user} />
      </Stack>
    </Container>
  );
}
