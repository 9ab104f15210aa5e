import { CARD_LIMITS } from '@exchange/shared';
import { Button, Group, Modal, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type LimitsKind = 'card' | 'atm';

/** The fixed texts of Card Limits and ATM Limits (docs/cards.md#constants), in EUR. */
const ROWS: Record<LimitsKind, [label: string, amount: string][]> = {
  card: [
    ['card.limits.monthly', CARD_LIMITS.monthlyTransactions],
    ['card.limits.perDay', CARD_LIMITS.cardPaymentPerDay],
  ],
  atm: [
    ['card.atm.daily', CARD_LIMITS.dailyAtmWithdrawal],
    ['card.atm.minimum', CARD_LIMITS.minimumAtmWithdrawal],
    ['card.atm.maximum', CARD_LIMITS.maximumPerAtmTransaction],
  ],
};

/** Card Limits or ATM Limits: the program's fixed limits. */
export function CardLimitsModal({ kind, onClose }: { kind: LimitsKind; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={t(kind === 'card' ? 'card.limits.title' : 'card.atm.title')}
    >
      <Table withRowBorders={false} data-testid={kind === 'card' ? 'card-limits' : 'card-atm-limits'}>
        <Table.Tbody>
          {ROWS[kind].map(([label, amount]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={400}>
                {t(label)}
              </Table.Th>
              <Table.Td ta="right">{t('card.limits.eur', { amount })}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('card.limits.close')}
        </Button>
      </Group>
    </Modal>
  );
}
