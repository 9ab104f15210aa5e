import {
  type CompanyInput,
  type CompanyResponse,
  companySchema,
  fieldErrors,
  REPRESENTATIVE_ROLES,
  registerExtractDateError,
} from '@exchange/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { CURRENT_USER_KEY } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { errorText } from '../auth/components/errors.ts';

const COMPANY_KEY = ['company'] as const;

type Person = { name: string; role: string; ownership: string };
interface Draft {
  name: string;
  registration_number: string;
  country: string;
  address: string;
  representatives: Person[];
}

const EMPTY: Draft = {
  name: '',
  registration_number: '',
  country: '',
  address: '',
  representatives: [{ name: '', role: 'director', ownership: '' }],
};

const STATE_COLOR: Record<CompanyResponse['review_state'], string> = {
  draft: 'gray',
  pending: 'yellow',
  onhold: 'yellow',
  retry: 'orange',
  rejected: 'red',
  verified: 'teal',
};

/** The saved company as the form's values (an empty share is a person owning nothing). */
function draftOf(c: CompanyResponse | null | undefined): Draft {
  if (!c) return EMPTY;
  return {
    name: c.name,
    registration_number: c.registration_number,
    country: c.country,
    address: c.address,
    representatives: c.representatives.map((r) => ({ ...r, ownership: r.ownership ?? '' })),
  };
}

/**
 * Settings › Company (business accounts, issue 31 part 3): the company, its representatives and owners (over 25 %
 * as beneficial owners), the commercial register extract (under one year old), and the submission to the
 * provider's company verification. The same shared schema as `PUT /resource/company` checks the form first.
 */
export function CompanySection() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const company = useQuery({
    queryKey: COMPANY_KEY,
    queryFn: async () => {
      try {
        return await api<CompanyResponse>('barong', '/resource/company');
      } catch (err) {
        if (err instanceof ApiError && err.errors[0] === 'resource.company.not_found') return null;
        throw err;
      }
    },
  });
  if (company.isPending) return null;
  return (
    <CompanyForm
      key={company.data?.review_state ?? 'new'}
      company={company.data ?? null}
      onChange={(next) => {
        queries.setQueryData(COMPANY_KEY, next);
        void queries.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      }}
      t={t}
    />
  );
}

function CompanyForm({
  company,
  onChange,
  t,
}: {
  company: CompanyResponse | null;
  onChange(next: CompanyResponse): void;
  t: ReturnType<typeof useTranslation>['t'];
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(company));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<'save' | 'upload' | 'submit' | null>(null);
  const [issuedOn, setIssuedOn] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const state = company?.review_state ?? 'draft';
  const editable = state === 'draft' || state === 'retry';
  const error = (key: string) => (errors[key] ? t(errors[key]) : undefined);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setPerson = (i: number, patch: Partial<Person>) =>
    set({ representatives: draft.representatives.map((p, j) => (j === i ? { ...p, ...patch } : p)) });

  const run = async (
    what: 'save' | 'upload' | 'submit',
    work: () => Promise<CompanyResponse>,
    done: string,
  ) => {
    setBusy(what);
    try {
      onChange(await work());
      toast.success(t(done));
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(null);
    }
  };

  const save = () => {
    const body = {
      ...draft,
      representatives: draft.representatives.map((p) => ({ ...p, ownership: p.ownership.trim() || null })),
    };
    const parsed = companySchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    void run(
      'save',
      () =>
        api<CompanyResponse>('barong', '/resource/company', {
          method: 'PUT',
          body: parsed.data as CompanyInput,
        }),
      'company.saved',
    );
  };

  const upload = () => {
    const dateError = registerExtractDateError(issuedOn, new Date().toISOString().slice(0, 10));
    if (dateError || !file) {
      setErrors({ issued_on: dateError ?? 'resource.documents.missing_upload' });
      return;
    }
    setErrors({});
    const form = new FormData();
    form.append('doc_type', 'register_extract');
    form.append('issued_on', issuedOn);
    form.append('file', file);
    void run(
      'upload',
      () => api<CompanyResponse>('barong', '/resource/company/documents', { method: 'POST', body: form }),
      'company.extract.uploaded',
    );
  };

  const submit = () =>
    void run(
      'submit',
      () => api<CompanyResponse>('barong', '/resource/company/submit', { method: 'POST' }),
      'company.submitted',
    );

  return (
    <Paper withBorder p="lg" data-testid="company-section">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('company.title')}</Title>
          <Badge color={STATE_COLOR[state]} data-testid="company-state" data-state={state}>
            {t(`company.state.${state}`)}
          </Badge>
        </Group>
        <Text size="sm">{t('company.intro')}</Text>
        {company?.review_comment && (
          <Alert color="orange" data-testid="company-comment">
            {company.review_comment}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('company.name')}
            value={draft.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={error('name')}
            disabled={!editable}
          />
          <TextInput
            label={t('company.registrationNumber')}
            value={draft.registration_number}
            onChange={(e) => set({ registration_number: e.currentTarget.value })}
            error={error('registration_number')}
            disabled={!editable}
          />
          <TextInput
            label={t('company.country')}
            value={draft.country}
            maxLength={3}
            onChange={(e) => set({ country: e.currentTarget.value.toUpperCase() })}
            error={error('country')}
            disabled={!editable}
          />
          <TextInput
            label={t('company.address')}
            value={draft.address}
            onChange={(e) => set({ address: e.currentTarget.value })}
            error={error('address')}
            disabled={!editable}
          />
        </SimpleGrid>
        <Title order={4}>{t('company.people')}</Title>
        {error('representatives') && (
          <Text c="red" size="sm" role="alert">
            {error('representatives')}
          </Text>
        )}
        {draft.representatives.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own until saved
          <Group key={i} align="flex-start" data-testid="company-person" wrap="wrap">
            <TextInput
              label={t('company.person.name')}
              value={p.name}
              onChange={(e) => setPerson(i, { name: e.currentTarget.value })}
              error={error(`representatives.${i}.name`)}
              disabled={!editable}
            />
            <NativeSelect
              label={t('company.person.role')}
              value={p.role}
              data={REPRESENTATIVE_ROLES.map((r) => ({ value: r, label: t(`company.role.${r}`) }))}
              onChange={(e) => setPerson(i, { role: e.currentTarget.value })}
              error={error(`representatives.${i}.role`)}
              disabled={!editable}
            />
            <TextInput
              label={t('company.person.ownership')}
              value={p.ownership}
              inputMode="decimal"
              w={120}
              onChange={(e) => setPerson(i, { ownership: e.currentTarget.value })}
              error={error(`representatives.${i}.ownership`)}
              disabled={!editable}
            />
            {editable && draft.representatives.length > 1 && (
              <Button
                variant="subtle"
                color="red"
                mt={24}
                onClick={() => set({ representatives: draft.representatives.filter((_, j) => j !== i) })}
              >
                {t('company.person.remove')}
              </Button>
            )}
          </Group>
        ))}
        {editable && (
          <Group>
            <Button
              variant="light"
              onClick={() =>
                set({
                  representatives: [
                    ...draft.representatives,
                    { name: '', role: 'shareholder', ownership: '' },
                  ],
                })
              }
              disabled={draft.representatives.length >= 20}
            >
              {t('company.person.add')}
            </Button>
            <Button onClick={save} loading={busy === 'save'} data-testid="company-save">
              {t('company.save')}
            </Button>
          </Group>
        )}
        {company && (
          <>
            <Title order={4}>{t('company.extract')}</Title>
            {company.documents.map((d) => (
              <Text key={d.id} size="sm" data-testid="company-document">
                {t('company.extract.item', { date: d.issued_on })} · {d.file_name}
              </Text>
            ))}
            {editable && (
              <Group align="flex-end">
                <TextInput
                  type="date"
                  label={t('company.extract.issuedOn')}
                  value={issuedOn}
                  onChange={(e) => setIssuedOn(e.currentTarget.value)}
                  error={error('issued_on')}
                />
                <Stack gap={4}>
                  <Text size="sm" fw={500} component="label" htmlFor="company-extract-file">
                    {t('company.extract.file')}
                  </Text>
                  <input
                    id="company-extract-file"
                    type="file"
                    accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf"
                    data-testid="company-extract-file"
                    onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
                  />
                </Stack>
                <Button
                  variant="light"
                  onClick={upload}
                  loading={busy === 'upload'}
                  data-testid="company-upload"
                >
                  {t('company.extract.upload')}
                </Button>
              </Group>
            )}
            {editable && (
              <Button
                onClick={submit}
                loading={busy === 'submit'}
                disabled={company.documents.length === 0}
                data-testid="company-submit"
                style={{ alignSelf: 'flex-start' }}
              >
                {t('company.submit')}
              </Button>
            )}
          </>
        )}
        <Text size="sm" c="dimmed">
          {t('company.identityNote')}
        </Text>
      </Stack>
    </Paper>
  );
}
