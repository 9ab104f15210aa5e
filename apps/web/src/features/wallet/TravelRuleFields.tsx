import type { Hosting, TravelRuleProvider } from '@exchange/shared';
import { Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';

/** The travel-rule directory of providers a saved address can be held by. */
export function useTravelRuleProviders() {
  return useQuery({
    queryKey: ['wallet', 'travel-rule-providers'],
    queryFn: () => api<TravelRuleProvider[]>('peatio', '/account/travel_rule/providers'),
    staleTime: 300_000,
  });
}

/** The values these fields edit. */
export interface TravelRuleValues {
  beneficiary_name?: string;
  hosting?: Hosting;
  provider_id?: string;
}

/**
 * Whom a new address belongs to and where it is held (Regulation (EU) 2023/1113): the owner's name, a provider
 * from the directory or the customer's own wallet. Errors are the form's codes by field.
 */
export function TravelRuleFields({
  values,
  errors,
  onChange,
}: {
  values: TravelRuleValues;
  errors: Record<string, string | undefined>;
  onChange: (next: TravelRuleValues) => void;
}) {
  const { t } = useTranslation();
  const providers = useTravelRuleProviders();
  const error = (field: string) => {
    const code = errors[field];
    return code ? t([code, 'server.error']) : undefined;
  };
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed">
        {t('wallet.beneficiary.travelRuleHint')}
      </Text>
      <TextInput
        label={t('wallet.beneficiary.owner')}
        value={values.beneficiary_name ?? ''}
        onChange={(e) => onChange({ ...values, beneficiary_name: e.currentTarget.value })}
        error={error('beneficiary_name')}
        data-testid="beneficiary-owner"
      />
      <Radio.Group
        label={t('wallet.beneficiary.hosting')}
        value={values.hosting ?? null}
        onChange={(v) =>
          onChange({
            ...values,
            hosting: v as Hosting,
            provider_id: v === 'provider' ? values.provider_id : undefined,
          })
        }
        error={error('hosting')}
      >
        <Group mt={4}>
          <Radio
            value="self_hosted"
            label={t('wallet.beneficiary.hosting.self_hosted')}
            data-testid="beneficiary-self-hosted"
          />
          <Radio
            value="provider"
            label={t('wallet.beneficiary.hosting.provider')}
            data-testid="beneficiary-hosted"
          />
        </Group>
      </Radio.Group>
      {values.hosting === 'provider' && (
        <Select
          label={t('wallet.beneficiary.provider')}
          data={(providers.data ?? []).map((p) => ({
            value: p.id,
            label: p.lei ? `${p.name} (LEI ${p.lei})` : p.name,
          }))}
          value={values.provider_id ?? null}
          onChange={(v) => onChange({ ...values, provider_id: v ?? undefined })}
          error={error('provider_id')}
          searchable
          data-testid="beneficiary-provider"
        />
      )}
    </Stack>
  );
}
