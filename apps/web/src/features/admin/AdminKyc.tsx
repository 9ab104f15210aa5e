import { Button, Group, Image, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useAdminAction } from './useAdminAction.ts';

interface Applicant {
  uid: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  dob: string | null;
  country: string | null;
  review_status: string;
  submitted_at: string;
  documents: { id: number; type: string; side: string | null; mime_type: string }[];
}

/** Compliance's queue: each applicant with the documents they sent the provider, and the decision. */
export function AdminKyc() {
  const { t } = useTranslation();
  const queue = useQuery({ queryKey: ['adminKyc'], queryFn: () => api<Applicant[]>('admin', '/kyc') });
  if (queue.data?.length === 0) return <Text c="dimmed">{t('admin.kyc.empty')}</Text>;
  return (
    <Stack data-testid="admin-kyc">
      {(queue.data ?? []).map((a) => (
        <ApplicantCard key={a.uid} applicant={a} />
      ))}
    </Stack>
  );
}

function ApplicantCard({ applicant: a }: { applicant: Applicant }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const { run, busy } = useAdminAction([['adminKyc']]);
  const decide = (decision: 'approve' | 'reject' | 'retry') =>
    run(decision, 'POST', `/kyc/${a.uid}/review`, { decision, reason }, t('admin.kyc.done'));
  return (
    <Paper withBorder p="md" data-testid="admin-applicant" data-uid={a.uid}>
      <Stack gap="xs">
        <Text fw={600}>
          {[a.first_name, a.last_name].filter(Boolean).join(' ')} · {a.email} · {a.country} · {a.dob}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {a.documents.map((d) =>
            d.mime_type.startsWith('image/') ? (
              <Image
                key={d.id}
                src={`/api/v2/admin/kyc/${a.uid}/documents/${d.id}`}
                alt={`${d.type}${d.side ? ` ${d.side}` : ''}`}
                h={160}
                fit="contain"
              />
            ) : (
              <a
                key={d.id}
                href={`/api/v2/admin/kyc/${a.uid}/documents/${d.id}`}
                target="_blank"
                rel="noreferrer"
              >
                {d.type}
              </a>
            ),
          )}
        </SimpleGrid>
        <TextInput
          label={t('admin.kyc.reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <Group>
          <Button color="teal" loading={busy === 'approve'} onClick={() => decide('approve')}>
            {t('admin.kyc.approve')}
          </Button>
          <Button color="orange" variant="light" loading={busy === 'retry'} onClick={() => decide('retry')}>
            {t('admin.kyc.retry')}
          </Button>
          <Button color="red" variant="light" loading={busy === 'reject'} onClick={() => decide('reject')}>
            {t('admin.kyc.reject')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
