import { type CardListItem, cardActionSchema, fieldErrors } from '@exchange/shared';
import { Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { CARD_ACTIONS, type CardActionKind, cardCalls, useRefreshCards } from './api.ts';
import { cardCodeText, cardErrorText, cardStatusKey } from './format.ts';

/**
 * One card action (spec §2, §5, §7): choose the card ("Please select card no." when none), read what happens,
 * confirm. The server's refusals ("Already blocked card", "Already unblocked card", "Card replacement in
 * processing", "Your card is blocked") are toasts; success is a toast and the card list is read again.
 */
export function CardActionModal({
  kind,
  cards,
  onClose,
}: {
  kind: CardActionKind;
  cards: CardListItem[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshCards();
  const [cardNumber, setCardNumber] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const confirm = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = cardActionSchema.safeParse({ card_number: cardNumber, type: CARD_ACTIONS[kind].type });
    if (!parsed.success) return setError(fieldErrors(parsed.error).card_number);
    setBusy(true);
    try {
      await cardCalls.action(kind, parsed.data.card_number);
      toast.success(t(`card.actions.${kind}.done`));
      onClose();
      await refresh();
    } catch (err) {
      toast.error(cardErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} centered title={t(`card.actions.${kind}`)}>
      <form onSubmit={confirm} noValidate data-testid={`card-action-modal-${kind}`}>
        <Stack>
          <NativeSelect
            label={t('card.actions.card')}
            value={cardNumber}
            onChange={(e) => {
              setCardNumber(e.currentTarget.value);
              setError(undefined);
            }}
            data={[
              { value: '', label: t('card.actions.selectCard') },
              ...cards.map((c) => ({
                value: c.card_number,
                label: `${c.card_number} · ${t(cardStatusKey(c.status))}`,
              })),
            ]}
            error={error && cardCodeText(t, error)}
            data-testid="card-action-card"
          />
          <Text size="sm">{t(`card.actions.${kind}.body`)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('card.actions.cancel')}
            </Button>
            <Button
              type="submit"
              loading={busy}
              color={kind === 'block' ? 'red' : undefined}
              data-testid="card-action-confirm"
            >
              {t('card.actions.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
