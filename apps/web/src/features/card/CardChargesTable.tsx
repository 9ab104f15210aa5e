import { Loader, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, longDate } from '../../components/format.tsx';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';
import { Pager } from '../wallet/HistoryTable.tsx';
import { CHARGES_PAGE_LIMIT, useCardCharges } from './api.ts';
import { cardErrorText } from './format.ts';

/** A card's charges (docs/cards.md#data): date, fee type, currency, fee, deduction date; pages only beyond one page. */
export function CardChargesTable({ cardNumber }: { cardNumber: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const charges = useCardCharges(cardNumber, page);
  if (charges.isPending) return <Loader size="sm" aria-label={t('card.tabs.charges')} />;
  if (charges.isError)
    return (
      <Text c="red" size="sm" role="alert">
        {cardErrorText(t, charges.error)}
      </Text>
    );
  const { items, total, perPage } = charges.data;
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={560}>
        <Table fz="sm" striped data-testid="card-charges">
          <TableHead
            labels={['date', 'type', 'currency', 'fee', 'deducted'].map((c) => t(`card.charges.${c}`))}
          />
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={`${item.created_at}-${item.fee_type}`} data-testid="card-charge-row">
                <Table.Td>{longDate(item.created_at)}</Table.Td>
                <Table.Td>
                  {t(`card.charges.type.${item.fee_type}`, { defaultValue: item.fee_type })}
                </Table.Td>
                <Table.Td>{item.currency.toUpperCase()}</Table.Td>
                <Table.Td>
                  <Amount value={item.fee} />
                </Table.Td>
                <Table.Td>{item.fee_deduction_date}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {items.length === 0 && <NoRecords />}
      </Table.ScrollContainer>
      <Pager total={total} page={page} limit={perPage || CHARGES_PAGE_LIMIT} onChange={setPage} />
    </Stack>
  );
}
