import {
  allowedIdTypes,
  CARD_ERRORS,
  createCardholderSchema,
  ID_NUMBER_MAX,
  type IdType,
} from '@exchange/shared';
import { Alert, Anchor, Button, Group, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { countryByIso } from '../auth/countries.ts';
import { VerificationRequiredModal } from '../kyc/VerificationRequiredModal.tsx';
import { CARD_KEYS, cardCalls, useCheckDocument } from './api.ts';
import { profileCountry } from './CardLanding.tsx';
import { cardCodeText, cardErrorCode } from './format.ts';

/** Codes shown under the document number field (the rest are toasts). */
const ID_NUMBER_CODES: readonly string[] = [
  CARD_ERRORS.idNumberRequired,
  CARD_ERRORS.idNumberTooShort,
  CARD_ERRORS.idNumberTooLong,
  CARD_ERRORS.idNumberInvalid,
  CARD_ERRORS.idnoExists,
];

/**
 * Step 1, Review profile (docs/cards.md#screens, #validation): the profile's name and country, the id type the country allows
 * (European ID card or passport; elsewhere passport only) and the document number, uppercased. Applying
 * creates the card holder; "already applied" moves the wizard to the holder's step.
 */
export function ReviewProfileStep({ user }: { user: User }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [prompt, setPrompt] = useState(false);
  const country = profileCountry(user) ?? '';
  const check = useCheckDocument(country);
  const idTypes: IdType[] = check.data?.id_types ?? allowedIdTypes(country);
  const allowed = check.data ? check.data.allowed : idTypes.length > 0;
  const profile = user.profiles?.[0];
  const name = [profile?.first_name, profile?.last_name].filter(Boolean).join(' ');

  const refreshHolder = () => client.invalidateQueries({ queryKey: CARD_KEYS.holder });
  const { form, busy, submit } = useSubmitForm(
    createCardholderSchema,
    { id_type: idTypes[0] ?? 'passport', id_no: '', country },
    async (values) => {
      await cardCalls.createCardholder({ ...values, id_type: idType });
      await refreshHolder();
    },
    (err, setErrors) => {
      const code = cardErrorCode(err);
      if (code === CARD_ERRORS.cardholderExists) void refreshHolder();
      else if (code === CARD_ERRORS.levelRequired) setPrompt(true);
      else if (ID_NUMBER_CODES.includes(code)) setErrors({ id_no: code });
      else toast.error(cardCodeText(t, code, idType));
    },
  );
  // The choice the country allows wins over a stale one (the check answers after the form starts).
  const idType: IdType = idTypes.includes(form.values.id_type as IdType)
    ? (form.values.id_type as IdType)
    : (idTypes[0] ?? 'passport');
  const numberLabel = t(idType === 'passport' ? 'card.profile.passportNumber' : 'card.profile.idNumber');

  if (!allowed)
    return (
      <Alert color="red" mt="md" data-testid="card-country-blocked">
        {t(CARD_ERRORS.countryNotAllowed)}
      </Alert>
    );

  return (
    <form onSubmit={submit} noValidate data-testid="card-wizard-profile">
      <Stack mt="md">
        <Text c="dimmed" size="sm">
          {t('card.profile.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('card.profile.name')} value={name} readOnly data-testid="card-profile-name" />
          <TextInput
            label={t('card.profile.country')}
            value={countryByIso(country)?.name ?? country}
            readOnly
            data-testid="card-profile-country"
          />
        </SimpleGrid>
        <Anchor component={Link} to="/settings" size="xs">
          {t('card.profile.editProfile')}
        </Anchor>
        <Radio.Group
          label={t('card.profile.idType')}
          value={idType}
          onChange={(v) => form.set('id_type', v as IdType)}
          data-testid="card-id-type"
        >
          <Group mt="xs">
            {idTypes.map((type) => (
              <Radio
                key={type}
                value={type}
                label={t(`card.profile.idType.${type}`)}
                data-testid={`card-id-type-${type}`}
              />
            ))}
          </Group>
        </Radio.Group>
        <TextInput
          label={numberLabel}
          description={t('card.profile.idNumberHint')}
          value={form.values.id_no}
          onChange={(e) => form.set('id_no', e.currentTarget.value.toUpperCase())}
          maxLength={ID_NUMBER_MAX[idType]}
          autoComplete="off"
          error={form.errors.id_no && cardCodeText(t, form.errors.id_no, idType)}
          data-testid="card-id-number"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} data-testid="card-profile-next">
            {t('card.wizard.next')}
          </Button>
        </Group>
      </Stack>
      <VerificationRequiredModal user={user} opened={prompt} onClose={() => setPrompt(false)} />
    </form>
  );
}
