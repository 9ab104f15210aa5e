import { CARD_LIMITS } from '@exchange/shared';
import { Button, Group, List, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The landing's "Trading Rules": who may apply, documents, card count, fees, top ups and limits (docs/cards.md#validation, #constants). */
export function TradingRulesModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = ['eligibility', 'documents', 'maxCards', 'fees', 'topup', 'replace'];
  return (
    <Modal opened={opened} onClose={onClose} centered size="lg" title={t('card.rules.title')}>
      <List spacing="xs" size="sm" data-testid="card-rules-body">
        {rules.map((rule) => (
          <List.Item key={rule}>{t(`card.rules.${rule}`)}</List.Item>
        ))}
        <List.Item>
          {t('card.rules.limits', {
            monthly: CARD_LIMITS.monthlyTransactions,
            perDay: CARD_LIMITS.cardPaymentPerDay,
            atmDaily: CARD_LIMITS.dailyAtmWithdrawal,
          })}
        </List.Item>
      </List>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('card.rules.close')}
        </Button>
      </Group>
    </Modal>
  );
}
