import { Anchor, Box, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Site footer: copyright year and links; the legal pages and the FAQ open in a new tab. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <Box
      component="footer"
      px="md"
      py="lg"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </Text>
        <Group gap="md">
          <Anchor href="/privacy" target="_blank" rel="noopener" size="sm">
            {t('footer.privacy')}
          </Anchor>
          <Anchor href="/terms" target="_blank" rel="noopener" size="sm">
            {t('footer.terms')}
          </Anchor>
          <Anchor href="/amlPolicy" target="_blank" rel="noopener" size="sm">
            {t('footer.aml')}
          </Anchor>
          <Anchor href="/faq" target="_blank" rel="noopener" size="sm">
            {t('footer.faq')}
          </Anchor>
          <Anchor component={Link} to="/contact" size="sm">
            {t('footer.contact')}
          </Anchor>
        </Group>
      </Group>
    </Box>
  );
}
