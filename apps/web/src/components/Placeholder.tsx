import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Stand-in for a screen whose issue has not landed yet; says so plainly. */
export function Placeholder({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={2}>{t('placeholder.title', { name })}</Title>
        <Text c="dimmed">{t('placeholder.body')}</Text>
        <Anchor component={Link} to="/">
          {t('placeholder.home')}
        </Anchor>
      </Stack>
    </Container>
  );
}
