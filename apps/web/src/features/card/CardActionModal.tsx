import { type CardListItem, cardActionSchema, fieldErrors } from '@exchange/shared';
import { Button, Group, Modal, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { CARD_ACTIONS, type CardActionKind, cardCalls, useRefreshCards } from './api.ts';
import { cardCodeText, cardErrorText, cardStatusKey, preselectedCard } from './format.ts';

/** The state each action leaves a card in (server `actions.ts`): none of them costs a fee. */
const AFTER: Record<CardActionKind, CardListItem['status']> = {
  block: 'loss',
  unblock: 'normal',
  replace: 'Card replacement processing',
};

/**
 * One card action (docs/cards.md#screens, #validation, #api): the card shown on the dashboard is chosen already (another may be picked;
 * "Please select card no." when none is), and what will happen is shown before Confirm: the card, its state
 * now and after, and the fee (none). The server's refusals ("Already blocked card", "Already unblocked card",
 * "Card replacement in processing", "Your card is blocked") are toasts; success is a toast and the card list is
 * read again.
 */
export function CardActionModal({
  kind,
  cards,
  shown,
  onClose,
}: {
  kind: CardActionKind;
  cards: CardListItem[];
  /** The card on screen (the carousel's), chosen when the dialog opens. */
  shown: CardListItem | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshCards();
  const [cardNumber, setCardNumber] = useState(() => preselectedCard(cards, shown));
  const chosen = cards.find((c) => c.card_number === cardNumber);
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
          {chosen && (
            <Table withRowBorders={false} verticalSpacing={4} data-testid="card-action-preview">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th scope="row">{t('card.actions.card')}</Table.Th>
                  <Table.Td ta="right" data-testid="card-action-preview-card">
                    {chosen.card_number}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">{t('card.actions.stateNow')}</Table.Th>
                  <Table.Td ta="right" data-testid="card-action-preview-now">
                    {t(cardStatusKey(chosen.status))}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">{t('card.actions.stateAfter')}</Table.Th>
                  <Table.Td ta="right" data-testid="card-action-preview-after">
                    {t(cardStatusKey(AFTER[kind]))}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">{t('card.actions.fee')}</Table.Th>
                  <Table.Td ta="right" data-testid="card-action-preview-fee">
                    {t('card.actions.noFee')}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          )}
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
