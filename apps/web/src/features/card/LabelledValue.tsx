import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A small dimmed label over its value, as the card wallet and the statement detail show their figures. */
export function LabelledValue({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}
