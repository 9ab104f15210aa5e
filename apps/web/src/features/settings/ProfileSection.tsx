import { ERRORS, LIMITS, profileComplete, profileSchema } from '@exchange/shared';
import {
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { api } from '../../api/client.ts';
import { CURRENT_USER_KEY, type User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { useSchemaForm } from '../../components/useSchemaForm.ts';
import { codeText, errorCodes, errorText } from '../auth/components/errors.ts';
import { countryByIso } from '../auth/countries.ts';
import { VerificationRequiredModal } from '../kyc/VerificationRequiredModal.tsx';
import { formatDateTime, KYC_COLOR, kycStatus } from './kyc.ts';

/** The shared profile body; the gender select starts empty, so its input is any string. */
const profileFormSchema = profileSchema.extend({ gender: z.string().pipe(profileSchema.shape.gender) });

interface Activity {
  action: string;
  result: string;
  created_at: string;
}

function Info({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

/** Settings › Profile (docs/accounts.md#screens, #states, #validation): identity data, editable only while KYC is Pending. */
export function ProfileSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const profile = user.profiles?.[0] ?? {};
  const status = kycStatus(user);
  const editable = status === 'pending';
  const phone = user.phones?.at(-1)?.number;
  const lastLogin = useQuery({
    queryKey: ['lastLogin'],
    queryFn: () => api<Activity[]>('barong', '/resource/users/activity/session', { query: { limit: 1 } }),
  });
  const form = useSchemaForm(profileFormSchema, {
    first_name: profile.first_name ?? undefined,
    last_name: profile.last_name ?? undefined,
    gender: profile.gender ?? '',
    dob: profile.dob ?? '',
    address: profile.address ?? '',
    postcode: profile.postcode ?? '',
    city: profile.city ?? '',
    country: profile.country ?? '',
    btnName: 'saveBtn',
  });
  const [saving, setSaving] = useState<'saveBtn' | 'proceedBtn' | null>(null);
  const [verifyPrompt, setVerifyPrompt] = useState(false);
  const error = (field: string) =>
    form.errors[field] ? codeText(t, form.errors[field], 'profile') : undefined;
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(' ');

  const save = async (btnName: 'saveBtn' | 'proceedBtn') => {
    const input = form.validate();
    if (!input) return;
    setSaving(btnName);
    try {
      await api('barong', '/resource/profiles', {
        method: user.profiles?.length ? 'PUT' : 'POST',
        body: { ...input, btnName },
      });
      await client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      // Save, then the KYC step; Proceed, straight into the provider's widget (docs/kyc.md#states).
      if (btnName === 'proceedBtn') navigate('/sumsub-kyc');
      else {
        toast.success(t('identity.profile.saved'));
        navigate('/kyc');
      }
    } catch (err) {
      const codes = errorCodes(err);
      if (codes.includes(ERRORS.profileNotEditable)) {
        if (btnName === 'proceedBtn') navigate('/sumsub-kyc');
        else {
          toast.error(errorText(t, err, 'profile'));
          window.setTimeout(() => window.location.reload(), LIMITS.profileReloadDelayMs);
        }
      } else if (codes.includes(ERRORS.profileInvalidDob)) form.setErrors({ dob: ERRORS.profileInvalidDob });
      else if (codes.includes(ERRORS.profileInvalidPostcode))
        form.setErrors({ postcode: ERRORS.profileInvalidPostcode });
      else toast.error(errorText(t, err, 'profile'));
    } finally {
      setSaving(null);
    }
  };

  return (
    <Paper withBorder p="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('identity.profile.title')}</Title>
          <Button
            variant="light"
            color={KYC_COLOR[status]}
            onClick={() => (profileComplete(profile) ? navigate('/sumsub-kyc') : setVerifyPrompt(true))}
            disabled={status === 'verified' || status === 'underReview' || status === 'rejected'}
            data-testid="kyc-status"
          >
            {t('identity.profile.kyc', { status: t(`identity.kyc.${status}`) })}
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Info label={t('identity.profile.name')} value={name} testId="profile-name" />
          <Info label={t('identity.profile.phone')} value={phone ? `+${phone}` : ''} testId="profile-phone" />
          <Info label={t('identity.profile.email')} value={user.email} testId="profile-email" />
          <Info label={t('identity.profile.uid')} value={user.uid} testId="profile-uid" />
          <Info
            label={t('identity.profile.accountType')}
            value={t(`identity.profile.accountType.${user.account_type ?? 'personal'}`)}
            testId="profile-account-type"
          />
          <Info
            label={t('identity.profile.lastLogin')}
            value={formatDateTime(lastLogin.data?.[0]?.created_at)}
            testId="profile-last-login"
          />
          <Info
            label={t('identity.profile.country')}
            value={countryByIso(profile.country)?.name ?? profile.country}
            testId="profile-country"
          />
        </SimpleGrid>
        {!editable && (
          <Badge variant="light" color="gray">
            {t('identity.profile.locked')}
          </Badge>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('identity.profile.gender')}
            data={['male', 'female', 'other'].map((g) => ({ value: g, label: t(`identity.gender.${g}`) }))}
            value={form.values.gender || null}
            onChange={(v) => form.set('gender', v ?? '')}
            error={error('gender')}
            disabled={!editable}
          />
          <TextInput
            label={t('identity.profile.dob')}
            type="date"
            value={form.values.dob}
            onChange={(e) => form.set('dob', e.currentTarget.value)}
            error={error('dob')}
            disabled={!editable}
          />
          <TextInput
            label={t('identity.profile.address')}
            value={form.values.address}
            onChange={(e) => form.set('address', e.currentTarget.value)}
            error={error('address')}
            disabled={!editable}
            maxLength={200}
          />
          <TextInput
            label={t('identity.profile.town')}
            value={form.values.city}
            onChange={(e) => form.set('city', e.currentTarget.value)}
            error={error('city')}
            disabled={!editable}
            maxLength={100}
          />
          <TextInput
            label={t('identity.profile.postcode')}
            value={form.values.postcode}
            onChange={(e) =>
              form.set('postcode', e.currentTarget.value.replace(/[^A-Za-z0-9]/g, '').slice(0, 10))
            }
            error={error('postcode')}
            disabled={!editable}
          />
        </SimpleGrid>
        {error('country') && (
          <Text c="red" size="sm">
            {error('country')}
          </Text>
        )}
        {editable && (
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => save('saveBtn')}
              loading={saving === 'saveBtn'}
              disabled={saving !== null}
            >
              {t('identity.profile.save')}
            </Button>
            <Button
              onClick={() => save('proceedBtn')}
              loading={saving === 'proceedBtn'}
              disabled={saving !== null}
            >
              {t('identity.profile.proceed')}
            </Button>
          </Group>
        )}
      </Stack>
      <VerificationRequiredModal user={user} opened={verifyPrompt} onClose={() => setVerifyPrompt(false)} />
    </Paper>
  );
}
