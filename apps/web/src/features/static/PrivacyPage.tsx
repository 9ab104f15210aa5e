import { Anchor, Button, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StaticKey } from '../../i18n/en/static.ts';

const SECTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;
type SectionNumber = (typeof SECTIONS)[number];
const CONTACT_SECTION: SectionNumber = 13;

const titleKey = (n: SectionNumber): StaticKey => `privacy.s${n}.title`;
const bodyKey = (n: SectionNumber): StaticKey => `privacy.s${n}.body`;
const anchorId = (n: SectionNumber) => `privacy-${n}`;

/** One section: numbered heading, paragraphs, and the contact link in the last section. */
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
      {n === CONTACT_SECTION && (
        <div>
          <Button component={Link} to="/contact" variant="light">
            {t('privacy.contactLink')}
          </Button>
        </div>
      )}
      <Anchor href="#toc" size="sm" c="dimmed">
        ↑ {t('legal.backToTop')}
      </Anchor>
    </Stack>
  );
}

/** Privacy policy (trading spec §1 privacy facts, GDPR structure). */
export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>{t('privacy.title')}</Title>
        <Text c="dimmed">{t('privacy.intro')}</Text>
        <Paper withBorder p="lg" radius="md" component="nav" id="toc" aria-labelledby="privacy-toc">
          <Title order={2} size="h4" mb="sm" id="privacy-toc">
            {t('legal.toc')}
          </Title>
          <List type="ordered" spacing={4}>
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
