import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/** What an account form card shows around its fields. */
interface AuthCardProps {
  title: string;
  intro: string;
  submitLabel: string;
  sending: boolean;
  onSubmit: (event: FormEvent) => void;
  /** Under the submit button: a link to the neighbouring screen. */
  footer: ReactNode;
  size?: 'xs' | 'sm';
  children: ReactNode;
}

/** The card of the account forms (register, forgot and reset password): title, intro, fields, submit, link. */
export function AuthCard({
  title,
  intro,
  submitLabel,
  sending,
  onSubmit,
  footer,
  size = 'xs',
  children,
}: AuthCardProps) {
  return (
    <Container size={size} py="xl">
      <Paper withBorder p="xl">
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <Title order={2}>{title}</Title>
            <Text c="dimmed" size="sm">
              {intro}
            </Text>
            {children}
            <Button type="submit" loading={sending}>
              {submitLabel}
            </Button>
            {footer}
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
