import { Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaticKey } from '../../i18n/en/static.ts';

/** A line icon drawn in the current text colour (paths as children, 24x24 view box). */
export function Svg({ size = 24, children }: { size?: number; children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      {children}
    </svg>
  );
}

/** One card of a feature grid. */
export interface FeatureItem {
  icon: ReactNode;
  title: StaticKey;
  body: StaticKey;
  color?: string;
}

/** Cards with an icon, a title and a sentence, four to a row on wide screens. */
export function FeatureGrid({ items }: { items: readonly FeatureItem[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
      {items.map((item) => (
        <Card key={item.title} withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <ThemeIcon variant="light" color={item.color} size={44} radius="md">
              <Svg>{item.icon}</Svg>
            </ThemeIcon>
            <Title order={3} size="h4">
              {t(item.title)}
            </Title>
            <Text c="dimmed" size="sm">
              {t(item.body)}
            </Text>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** Numbered steps (1, 2, 3, ...) with a title and a sentence each. */
export function StepGrid({ steps }: { steps: readonly { title: StaticKey; body: StaticKey }[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
      {steps.map((step, i) => (
        <Stack key={step.title} gap="xs">
          <ThemeIcon radius="xl" size={36}>
            <Text span fw={700}>
              {i + 1}
            </Text>
          </ThemeIcon>
          <Text fw={600}>{t(step.title)}</Text>
          <Text c="dimmed" size="sm">
            {t(step.body)}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
