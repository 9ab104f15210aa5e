import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A table's header row from its column labels. */
export function TableHead({ labels }: { labels: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {labels.map((label) => (
          <Table.Th key={label}>{label}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/** Under a table with no rows: "No record found" (docs/wallet.md#screens). */
export function NoRecords() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed" ta="center" py="sm">
      {t('wallet.empty')}
    </Text>
  );
}
