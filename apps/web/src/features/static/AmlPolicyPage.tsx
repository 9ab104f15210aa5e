import { Anchor, Container, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StaticKey } from '../../i18n/en/static.ts';

const SECTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
type SectionNumber = (typeof SECTIONS)[number];

/** Sections that end with a bulleted list (one item per line in the catalogue). */
const SECTION_ITEMS: Partial<Record<SectionNumber, StaticKey>> = {
  1: 'aml.s1.items',
  10: 'aml.s10.items',
};

const GLANCE_ROWS = [1, 2, 3, 4, 5, 6] as const;
type GlanceRow = (typeof GLANCE_ROWS)[number];
const glanceItem = (r: GlanceRow): StaticKey => `aml.glance.r${r}.item`;
const glanceValue = (r: GlanceRow): StaticKey => `aml.glance.r${r}.value`;

const titleKey = (n: SectionNumber): StaticKey => `aml.s${n}.title`;
const bodyKey = (n: SectionNumber): StaticKey => `aml.s${n}.body`;
const anchorId = (n: SectionNumber) => `aml-${n}`;

/** One section: numbered heading, paragraphs and an optional list. */
function Section({ n }: { n: SectionNumber }) {
  const { t } = useTranslation();
  const itemsKey = SECTION_ITEMS[n];
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
      {itemsKey && (
        <List spacing="xs">
          {t(itemsKey)
            .split('\n')
            .map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
        </List>
      )}
      <Anchor href="#toc" size="sm" c="dimmed">
        ↑ {t('legal.backToTop')}
      </Anchor>
    </Stack>
  );
}

/** The key figures of the policy in one table. */
function AtAGlance() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('aml.glance.title')}
      </Title>
      <Table.ScrollContainer minWidth={420}>
        <Table striped withRowBorders>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('aml.glance.item')}</Table.Th>
              <Table.Th>{t('aml.glance.value')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {GLANCE_ROWS.map((r) => (
              <Table.Tr key={r}>
                <Table.Td>{t(glanceItem(r))}</Table.Td>
                <Table.Td>{t(glanceValue(r))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** Anti-money-laundering policy (trading spec §1 AML facts). */
export function AmlPolicyPage() {
  const { t } = useTranslation();
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>{t('aml.title')}</Title>
        <Text c="dimmed">{t('aml.intro')}</Text>
        <Paper withBorder p="lg" radius="md" component="nav" id="toc" aria-labelledby="aml-toc">
          <Title order={2} size="h4" mb="sm" id="aml-toc">
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
        <AtAGlance />
        {SECTIONS.map((n) => (
          <Section key={n} n={n} />
        ))}
      </Stack>
    </Container>
  );
}
