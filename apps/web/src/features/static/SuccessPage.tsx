import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Generic success page (e.g. after identity verification). */
export function SuccessPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl">
      <Stack align="center">
        <Title order={2}>✓ {t('success.title')}</Title>
        <Text>{t('success.body')}</Text>
        <Button component={Link} to="/">
          {t('placeholder.home')}
        </Button>
      </Stack>
    </Container>
  );
}
