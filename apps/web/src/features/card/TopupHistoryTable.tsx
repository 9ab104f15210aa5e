import { Badge, Loader, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, longDate } from '../../components/format.tsx';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';
import { Pager } from '../wallet/HistoryTable.tsx';
import { TOPUPS_PAGE_LIMIT, useTopups } from './api.ts';
import { cardErrorText } from './format.ts';
import { topupStatusColor, topupStatusKey, topupStatusNote } from './money.ts';

/**
 * A card's top-ups (docs/cards.md#data, #states): order no., date, amount, currency, USDT amount, status (aasm_state `failed`
 * shows as Processing, with a note once a declined top-up's amount is back in the spot wallet); 10 a page, pages only beyond one page; "No record found" when empty.
 */
export function TopupHistoryTable({ cardNumber }: { cardNumber: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const topups = useTopups(cardNumber, page);
  if (topups.isPending) return <Loader size="sm" aria-label={t('card.tabs.topups')} />;
  if (topups.isError)
    return (
      <Text c="red" size="sm" role="alert">
        {cardErrorText(t, topups.error)}
      </Text>
    );
  const { items, totalItem } = topups.data;
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={640}>
        <Table fz="sm" striped data-testid="card-topup-history">
          <TableHead
            labels={['order', 'date', 'amountCol', 'currency', 'usdtAmount', 'status'].map((c) =>
              t(`card.topup.${c}`),
            )}
          />
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.order_no} data-testid="card-topup-row">
                <Table.Td data-testid="card-topup-row-order">{item.order_no}</Table.Td>
                <Table.Td>{longDate(item.created_at)}</Table.Td>
                <Table.Td data-testid="card-topup-row-amount">
                  <Amount value={item.amount} />
                </Table.Td>
                <Table.Td>{item.currency.toUpperCase()}</Table.Td>
                <Table.Td data-testid="card-topup-row-usdt">
                  <Amount value={item.usdt_amount} />
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={topupStatusColor(item)} data-testid="card-topup-row-status">
                    {t(topupStatusKey(item))}
                  </Badge>
                  {topupStatusNote(item) && (
                    <Text size="xs" c="dimmed" data-testid="card-topup-row-note">
                      {t(topupStatusNote(item) ?? '')}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {items.length === 0 && <NoRecords />}
      </Table.ScrollContainer>
      <Pager total={totalItem} page={page} limit={TOPUPS_PAGE_LIMIT} onChange={setPage} />
    </Stack>
  );
}
