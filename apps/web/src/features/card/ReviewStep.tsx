import type { CardHolderState } from '@exchange/shared';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { CARD_KEYS, useCardAudit } from './api.ts';
import { holderStatus, reviewFailed } from './wizard.ts';

/**
 * Step 3, To be reviewed (docs/cards.md#states): while under review, a waiting text (the user is emailed on approval) and a
 * poll of card_audit; approval moves on (the holder is read again); rejection or incomplete information shows
 * the failure with its description, and OK returns to the documents.
 */
export function ReviewStep({ holder, onBack }: { holder: CardHolderState; onBack: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const known = holderStatus(holder);
  const audit = useCardAudit(known === 'under_review');
  // Only an answer given since this step showed counts: an older one may predate the last submission.
  const fresh = audit.isFetchedAfterMount ? audit.data : undefined;
  const status = fresh?.status ?? known;

  // The review moved on: the holder's state (and so the wizard's step) follows.
  useEffect(() => {
    if (fresh && fresh.status !== known) void client.invalidateQueries({ queryKey: CARD_KEYS.holder });
  }, [fresh, known, client]);

  if (reviewFailed(status)) {
    const description = fresh?.description ?? holder.description;
    return (
      <Stack mt="md" data-testid="card-wizard-review">
        <Alert color="red" title={t('card.review.failedTitle')} data-testid="card-review-failed">
          <Stack gap="xs">
            <Text size="sm">{t(`card.review.${status}`)}</Text>
            {description && (
              <Text size="sm" data-testid="card-review-description">
                {description}
              </Text>
            )}
          </Stack>
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onBack} data-testid="card-review-ok">
            {t('card.review.ok')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack mt="md" align="center" data-testid="card-wizard-review">
      {status === 'activation_successful' ? (
        <Text c="teal" data-testid="card-review-approved">
          {t('card.review.approved')}
        </Text>
      ) : (
        <>
          <Loader aria-label={t('card.review.checking')} />
          <Text ta="center" data-testid="card-review-waiting">
            {t('card.review.waiting')}
          </Text>
        </>
      )}
    </Stack>
  );
}
