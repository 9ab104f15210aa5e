import { List, Paper, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StaticKey } from '../../i18n/en/static.ts';
import { LegalDocument } from './LegalDocument.tsx';

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

/** A section's bulleted list (one item per line in the catalogue), when it has one. */
function SectionItems({ n }: { n: SectionNumber }) {
  const { t } = useTranslation();
  const itemsKey = SECTION_ITEMS[n];
  if (!itemsKey) return null;
  return (
    <List spacing="xs">
      {t(itemsKey)
        .split('\n')
        .map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
    </List>
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

/** Anti-money-laundering policy (docs/accounts.md#public-pages AML facts). */
export function AmlPolicyPage() {
  return (
    <LegalDocument
      id="aml"
      title="aml.title"
      intro="aml.intro"
      sections={SECTIONS}
      sectionTitle={(n: SectionNumber): StaticKey => `aml.s${n}.title`}
      sectionBody={(n: SectionNumber): StaticKey => `aml.s${n}.body`}
      extra={(n) => <SectionItems n={n} />}
      preface={<AtAGlance />}
    />
  );
}
