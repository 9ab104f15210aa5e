import { CARD_ERRORS, type CardHolderState, requiredDocuments } from '@exchange/shared';
import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { CARD_KEYS, cardCalls } from './api.ts';
import { DocumentUpload } from './DocumentUpload.tsx';
import { cardCodeText, cardErrorCode } from './format.ts';
import { SelfieCapture } from './SelfieCapture.tsx';
import { holderIdType, missingUploads } from './wizard.ts';

/** What Submit for review found wrong: a code, and its message. */
interface Problem {
  code: string;
  text: string;
}

/**
 * Whether a problem still holds for the holder as it is now: "Please upload your document" goes once every
 * document image is uploaded, "Please upload your selfie" once the selfie is (issue 32: they stayed on screen).
 */
export function problemHolds(problem: Problem, missing: readonly string[]): boolean {
  if (problem.code === CARD_ERRORS.documentRequired) return missing.some((doc) => doc !== 'selfie');
  if (problem.code === CARD_ERRORS.selfieRequired) return missing.includes('selfie');
  return true;
}

/**
 * Step 2, KYC verification (docs/cards.md#states, #validation): ID front and back (ID card) or the passport page, then the selfie;
 * "Submit for review" needs them all ("Please upload your document", "Please upload your selfie"), and each of
 * those leaves as soon as what it asks for is uploaded.
 */
export function KycStep({ holder, onSubmitted }: { holder: CardHolderState; onSubmitted: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const idType = holderIdType(holder);
  const missing = missingUploads(holder);
  const shown = problem && problemHolds(problem, missing) ? problem.text : undefined;
  const setError = (code: string | undefined) =>
    setProblem(code === undefined ? undefined : { code, text: cardCodeText(t, code, idType) });

  const submit = async () => {
    if (missing.some((doc) => doc !== 'selfie')) return setError(CARD_ERRORS.documentRequired);
    if (missing.length > 0) return setError(CARD_ERRORS.selfieRequired);
    setError(undefined);
    setBusy(true);
    try {
      await cardCalls.submitDocuments();
      // The review starts afresh: an older answer of card_audit no longer holds.
      client.removeQueries({ queryKey: CARD_KEYS.audit });
      await client.invalidateQueries({ queryKey: CARD_KEYS.holder });
      toast.success(t('card.kyc.submitted'));
      onSubmitted();
    } catch (err) {
      // A refused submission stays on the documents, with the holder's state read again.
      const code = cardErrorCode(err);
      if (code === CARD_ERRORS.documentRequired || code === CARD_ERRORS.selfieRequired) setError(code);
      else toast.error(cardCodeText(t, code, idType));
      await client.invalidateQueries({ queryKey: CARD_KEYS.holder });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack mt="md" data-testid="card-wizard-kyc">
      <Text c="dimmed" size="sm">
        {t('card.kyc.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {requiredDocuments(idType).map((doc) => (
          <DocumentUpload key={doc} docType={doc} uploaded={holder[doc]} />
        ))}
        <SelfieCapture uploaded={holder.selfie} />
      </SimpleGrid>
      {shown && (
        <Alert color="red" role="alert" data-testid="card-kyc-error">
          {shown}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={busy} data-testid="card-kyc-submit">
          {t('card.kyc.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
