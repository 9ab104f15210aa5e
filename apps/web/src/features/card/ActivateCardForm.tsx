import { CARD_ERRORS, cardActivateSchema } from '@exchange/shared';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { cardCalls, useRefreshCards } from './api.ts';
import { cardCodeText, cardErrorCode, cardNumberInput } from './format.ts';

/** Activation of a paid card (docs/cards.md#validation): the 16-digit number printed on it, else "Please fill correct account no.". */
export function ActivateCardForm() {
  const { t } = useTranslation();
  const refresh = useRefreshCards();
  const { form, busy, submit } = useSubmitForm(
    cardActivateSchema,
    { card_number: '' },
    async ({ card_number }) => {
      await cardCalls.activate(card_number);
      toast.success(t('card.activate.done'));
      form.reset();
      await refresh();
    },
    (err, setErrors) => {
      const code = cardErrorCode(err);
      if (code === CARD_ERRORS.cardNumberInvalid) setErrors({ card_number: code });
      else toast.error(cardCodeText(t, code));
    },
  );
  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={submit} noValidate data-testid="card-activate-form">
        <Stack gap="xs">
          <Title order={4}>{t('card.activate.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('card.activate.body')}
          </Text>
          <Group align="flex-start">
            <TextInput
              label={t('card.activate.number')}
              value={form.values.card_number}
              onChange={(e) => form.set('card_number', cardNumberInput(e.currentTarget.value))}
              error={form.errors.card_number && cardCodeText(t, form.errors.card_number)}
              inputMode="numeric"
              autoComplete="off"
              style={{ flex: 1 }}
              data-testid="card-activate-number"
            />
            <Button type="submit" mt={25} loading={busy} data-testid="card-activate">
              {t('card.activate.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
