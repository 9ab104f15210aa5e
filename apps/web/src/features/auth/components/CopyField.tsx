import { Button, CopyButton, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A read-only value with a copy button that says "Copied!" for a moment. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput label={label} value={value} readOnly style={{ flex: 1 }} data-testid={testId} />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button variant="default" onClick={copy} w={96} aria-label={t('identity.copy.label', { label })}>
            {copied ? t('copy.done') : t('identity.copy.button')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
