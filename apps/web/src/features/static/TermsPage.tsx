import { Anchor, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StaticKey } from '../../i18n/en/static.ts';

const SECTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18] as const;
type SectionNumber = (typeof SECTIONS)[number];

const titleKey = (n: SectionNumber): StaticKey => `terms.s${n}.title`;
const bodyKey = (n: SectionNumber): StaticKey => `terms.s${n}.body`;
const anchorId = (n: SectionNumber) => `terms-${n}`;

/** One section: numbered heading and its paragraphs (separated by blank lines in the catalogue). */
function Section({ n }: { n: SectionNumber }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" component="section" id={anchorId(n)} style={{ scrollMarginTop: 16 }}>
      <Title order={3}>
        {n}. {t(titleKey(n))}
      </Title>
      {t(bodyKey(n))
        .split('\n\n')
        .map((paragraph) => (
          <Text key={paragraph}>{paragraph}</Text>
        ))}
      <Anchor href="#toc" size="sm" c="dimmed">
        ↑ {t('legal.backToTop')}
      </Anchor>
    </Stack>
  );
}

/** Terms of use (trading spec §1): eighteen numbered sections with a table of contents. */
export function TermsPage() {
  const { t } = useTranslation();
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>{t('terms.title')}</Title>
        <Text c="dimmed">{t('terms.intro')}</Text>
        <Paper withBorder p="lg" radius="md" component="nav" id="toc" aria-labelledby="terms-toc">
          <Title order={2} size="h4" mb="sm" id="terms-toc">
            {t('legal.toc')}
          </Title>
          <List type="ordered" spacing={4} data-testid="terms-toc">
            {SECTIONS.map((n) => (
              <List.Item key={n}>
                <Anchor href={`#${anchorId(n)}`}>{t(titleKey(n))}</Anchor>
              </List.Item>
            ))}
          </List>
        </Paper>
        {SECTIONS.map((n) => (
          <Section key={n} n={n} />
        ))}
      </Stack>
    </Container>
  );
}
