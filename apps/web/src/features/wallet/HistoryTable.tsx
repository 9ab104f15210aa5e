import type { WalletHistoryItem } from '@exchange/shared';
import { Anchor, Group, Pagination, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Amount, longDate } from '../../components/format.tsx';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';
import { type HistoryKind, useCurrencies } from './api.ts';
import { depositProgress, explorerLink, networkName, networkOf, statusColor, statusKey } from './format.ts';

/** Pages only when there is more than one (docs/wallet.md#constants). */
export function Pager({
  total,
  page,
  limit,
  onChange,
}: {
  total: number;
  page: number;
  limit: number;
  onChange: (p: number) => void;
}) {
  const pages = Math.ceil(total / limit);
  if (pages <= 1) return null;
  return (
    <Group justify="flex-end">
      <Pagination size="sm" total={pages} value={page} onChange={onChange} />
    </Group>
  );
}

function Info({ kind, item }: { kind: HistoryKind; item: WalletHistoryItem }) {
  const { t } = useTranslation();
  const { data: currencies } = useCurrencies();
  if (kind === 'adjustments') return <>{t('wallet.history.adjustmentInfo')}</>;
  const txid = item.blockchain_txid ?? item.txid;
  if (!txid) return <>{t(`wallet.history.type.${item.transaction_type}`)}</>;
  // An internal transfer's reference (the sender's W<id>) is no chain transaction: no explorer link.
  const href =
    item.transaction_type === 'internal' ? undefined : explorerLink(networkOf(currencies, item), txid);
  const text = txid.length > 16 ? `${txid.slice(0, 8)}…${txid.slice(-6)}` : txid;
  return href ? (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" title={txid} size="sm">
      {text}
    </Anchor>
  ) : (
    <Text span inherit title={txid}>
      {text}
    </Text>
  );
}

/** A pending deposit's "n/30 confirmations", live: the private `deposit` stream refreshes the list. */
function Confirmations({ item }: { item: WalletHistoryItem }) {
  const { t } = useTranslation();
  const { data: currencies } = useCurrencies();
  const progress = depositProgress(item, networkOf(currencies, item));
  if (!progress) return null;
  return (
    <Text span size="xs" c="dimmed" ml={6} data-testid="history-confirmations">
      {t('wallet.history.confirmations', progress)}
    </Text>
  );
}

/** Status, coin, network, amount, date, info (docs/wallet.md#screens Transaction History); "No record found" when empty. */
export function HistoryTable({
  kind,
  items,
  testId,
}: {
  kind: HistoryKind;
  items: WalletHistoryItem[];
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table fz="sm" striped data-testid={testId}>
        <TableHead
          labels={['status', 'coin', 'network', 'amount', 'date', 'info'].map((c) =>
            t(`wallet.history.${c}`),
          )}
        />
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id} data-testid="history-row">
              <Table.Td>
                <Text span inherit c={statusColor(item.state)} data-testid="history-status">
                  {t(statusKey(kind, item.state), { defaultValue: item.state })}
                </Text>
                {kind === 'deposits' && item.state === 'submitted' && <Confirmations item={item} />}
                {item.message && (
                  <Text size="xs" c="orange" maw={320} data-testid="history-message">
                    {t(item.message)}
                  </Text>
                )}
                {item.note && (
                  <Text size="xs" c="dimmed" data-testid="history-note">
                    {item.note}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{item.currency.toUpperCase()}</Table.Td>
              <Table.Td>
                {kind === 'adjustments'
                  ? t('wallet.history.adjustmentNetwork')
                  : item.blockchain_key === null && kind === 'deposits'
                    ? t('wallet.history.bankNetwork')
                    : networkName(item.blockchain_key).toUpperCase()}
              </Table.Td>
              <Table.Td>
                <Amount value={item.amount} />
              </Table.Td>
              <Table.Td>{longDate(item.created_at)}</Table.Td>
              <Table.Td>
                <Info kind={kind} item={item} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {items.length === 0 && <NoRecords />}
    </Table.ScrollContainer>
  );
}
