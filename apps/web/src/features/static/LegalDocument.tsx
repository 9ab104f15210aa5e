import { Anchor, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaticKey } from '../../i18n/en/static.ts';

/** What a legal page supplies: its catalogue keys, section numbers and optional extra content. */
export interface LegalDocumentProps<N extends number> {
  /** Anchor and test-id prefix, e.g. `terms`. */
  id: string;
  title: StaticKey;
  intro: StaticKey;
  sections: readonly N[];
  sectionTitle: (n: N) => StaticKey;
  sectionBody: (n: N) => StaticKey;
  /** Rendered after a section's paragraphs (a list, a link). */
  extra?: (n: N) => ReactNode;
  /** Rendered between the contents and the first section. */
  preface?: ReactNode;
}

/**
 * A numbered legal document: title, introduction, table of contents linking to each section, and the sections
 * with their paragraphs (separated by blank lines in the catalogue) and a link back to the contents.
 */
export function LegalDocument<N extends number>(props: LegalDocumentProps<N>) {
  const { t } = useTranslation();
  const anchor = (n: N) => `${props.id}-${n}`;
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>{t(props.title)}</Title>
        <Text c="dimmed">{t(props.intro)}</Text>
        <Paper withBorder p="lg" radius="md" component="nav" id="toc" aria-labelledby={`${props.id}-toc`}>
          <Title order={2} size="h4" mb="sm" id={`${props.id}-toc`}>
            {t('legal.toc')}
          </Title>
          <List type="ordered" spacing={4} data-testid={`${props.id}-toc`}>
            {props.sections.map((n) => (
              <List.Item key={n}>
                <Anchor href={`#${anchor(n)}`}>{t(props.sectionTitle(n))}</Anchor>
              </List.Item>
            ))}
          </List>
        </Paper>
        {props.preface}
        {props.sections.map((n) => (
          <Stack key={n} gap="xs" component="section" id={anchor(n)} style={{ scrollMarginTop: 16 }}>
            <Title order={3}>
              {n}. {t(props.sectionTitle(n))}
            </Title>
            {t(props.sectionBody(n))
              .split('\n\n')
              .map((paragraph) => (
                <Text key={paragraph}>{paragraph}</Text>
              ))}
            {props.extra?.(n)}
            <Anchor href="#toc" size="sm" c="dimmed">
              ↑ {t('legal.backToTop')}
            </Anchor>
          </Stack>
        ))}
      </Stack>
    </Container>
  );
}
