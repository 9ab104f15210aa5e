import type { CardFee } from '@exchange/shared';
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { feeDue } from './format.ts';

/** The program's fees and limits from card_fee (docs/cards.md#data, #constants): in USDT, but the top-up fee, a percentage. */
export function FeeSummary({ fee, usdtBalance }: { fee: CardFee; usdtBalance: string | undefined }) {
  const { t } = useTranslation();
  const usdt = (amount: string) => t('card.fee.usdt', { amount });
  const rows: [string, string, string][] = [
    ['activation', t('card.fee.activation'), usdt(fee.activation_fee)],
    ['annual', t('card.fee.annual'), usdt(fee.annual_fee)],
    ['topup', t('card.fee.topup'), t('card.fee.percent', { amount: fee.topup_fee })],
    ['topup-limit', t('card.fee.topupLimit'), usdt(fee.topup_limit)],
    ['load-limit', t('card.fee.loadLimit'), usdt(fee.load_limit)],
    ['total', t('card.fee.total'), usdt(feeDue(fee))],
  ];
  if (usdtBalance !== undefined) rows.push(['balance', t('card.fee.balance'), usdt(usdtBalance)]);
  return (
    <Table withRowBorders={false} verticalSpacing={4} data-testid="card-fee-summary">
      <Table.Tbody>
        {rows.map(([key, label, value]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row" fw={key === 'total' ? 700 : 400}>
              {label}
            </Table.Th>
            <Table.Td ta="right" fw={key === 'total' ? 700 : 400} data-testid={`card-fee-${key}`}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
