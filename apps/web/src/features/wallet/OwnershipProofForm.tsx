import { type BeneficiaryItem, type OwnershipChallenge, ownershipProofSchema } from '@exchange/shared';
import { Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { WALLET_KEYS } from './api.ts';
import { walletErrorCode, walletErrorText } from './format.ts';

/** The form's part of the proof: the challenge's id comes from the server's message. */
const signatureSchema = ownershipProofSchema.pick({ signature: true });

/**
 * Proof that a self-hosted address is the customer's: the server's message to sign in the wallet that holds the
 * address, and the signature pasted back. A new message is asked for each time the form opens.
 */
export function OwnershipProofForm({ item, onDone }: { item: BeneficiaryItem; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [challenge, setChallenge] = useState<OwnershipChallenge>();
  useEffect(() => {
    let live = true;
    api<OwnershipChallenge>('peatio', `/account/beneficiaries/${item.id}/ownership_challenge`, {
      method: 'POST',
    })
      .then((c) => live && setChallenge(c))
      .catch((err: unknown) => {
        const text = walletErrorText(t, err);
        if (text) toast.error(text);
      });
    return () => {
      live = false;
    };
  }, [item.id, t]);
  const { form, busy, submit } = useSubmitForm(
    signatureSchema,
    { signature: '' },
    async ({ signature }) => {
      if (!challenge) return;
      await api('peatio', `/account/beneficiaries/${item.id}/ownership_proof`, {
        method: 'POST',
        body: { challenge_id: challenge.challenge_id, signature },
      });
      toast.success(t('wallet.beneficiary.proof.done'));
      await client.invalidateQueries({ queryKey: WALLET_KEYS.beneficiaries });
      onDone();
    },
    (err, setErrors) => setErrors({ signature: walletErrorCode(err) }),
  );
  if (!challenge) return null;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Text size="sm">
          {t('wallet.beneficiary.proof.intro', {
            method: t(`wallet.beneficiary.proof.method.${challenge.method}`),
          })}
        </Text>
        <Text size="xs" fw={600}>
          {t('wallet.beneficiary.proof.message')}
        </Text>
        <Code block data-testid="ownership-message">
          {challenge.message}
        </Code>
        <Textarea
          label={t('wallet.beneficiary.proof.signature')}
          value={form.values.signature}
          onChange={(e) => form.set('signature', e.currentTarget.value)}
          error={form.errors.signature && t([form.errors.signature, 'server.error'])}
          autosize
          minRows={2}
          data-testid="ownership-signature"
        />
        <Group>
          <Button type="submit" size="sm" loading={busy} data-testid="ownership-submit">
            {t('wallet.beneficiary.proof.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
