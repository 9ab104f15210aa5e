import { Button, Group, Image, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

interface Document {
  id: number;
  type: string;
  side?: string | null;
  mime_type: string;
}

/** One person waiting for an identity review: the exchange's KYC applicant or a card holder. */
interface Applicant {
  uid: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  country: string | null;
  /** KYC applicants: date of birth; card holders: the document type. */
  dob?: string | null;
  id_type?: string;
  documents: Document[];
  /** KYC applicants: the person's identity, or a business account's company (KYB). */
  kind?: 'individual' | 'company';
  company?: {
    name: string;
    registration_number: string;
    country: string;
    address: string;
    register_extract_issued_on: string | null;
    representatives: { name: string; role: string; ownership: string | null }[];
  } | null;
}

/** A review queue: where it is listed and decided, and the decisions it offers. */
interface Queue {
  key: string;
  path: string;
  decisions: { decision: string; label: string; color: string }[];
}

/**
 * Compliance's queues: KYC applicants with the documents they sent the provider, and card holders with the
 * documents they sent the card issuer. Each decision goes to the provider; a rejection's reason reaches the user.
 * No decision is offered on the staff member's own application (`me`).
 */
export function AdminKyc({ me }: { me: string }) {
  const { t } = useTranslation();
  const queues: (Queue & { title: string; empty: string })[] = [
    {
      key: 'adminKyc',
      path: '/kyc',
      title: t('admin.kyc.title'),
      empty: t('admin.kyc.empty'),
      decisions: [
        { decision: 'approve', label: t('admin.kyc.approve'), color: 'teal' },
        { decision: 'retry', label: t('admin.kyc.retry'), color: 'orange' },
        { decision: 'reject', label: t('admin.kyc.reject'), color: 'red' },
      ],
    },
    {
      key: 'adminCardHolders',
      path: '/card_holders',
      title: t('admin.cardHolders.title'),
      empty: t('admin.cardHolders.empty'),
      decisions: [
        { decision: 'approve', label: t('admin.kyc.approve'), color: 'teal' },
        { decision: 'incomplete', label: t('admin.cardHolders.incomplete'), color: 'orange' },
        { decision: 'reject', label: t('admin.kyc.reject'), color: 'red' },
      ],
    },
  ];
  return (
    <Stack>
      {queues.map((q) => (
        <ReviewQueue key={q.key} queue={q} title={q.title} empty={q.empty} me={me} />
      ))}
    </Stack>
  );
}

function ReviewQueue({
  queue,
  title,
  empty,
  me,
}: {
  queue: Queue;
  title: string;
  empty: string;
  me: string;
}) {
  const list = useQuery({ queryKey: [queue.key], queryFn: () => api<Applicant[]>('admin', queue.path) });
  return (
    <Stack data-testid={queue.key === 'adminKyc' ? 'admin-kyc' : 'admin-card-holders'}>
      <Title order={4}>{title}</Title>
      {list.data?.length === 0 && <Text c="dimmed">{empty}</Text>}
      {(list.data ?? []).map((a) => (
        <ApplicantCard key={`${a.uid}-${a.kind ?? ''}`} applicant={a} queue={queue} own={a.uid === me} />
      ))}
    </Stack>
  );
}

function ApplicantCard({ applicant: a, queue, own }: { applicant: Applicant; queue: Queue; own: boolean }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const { run, busy } = useAdminAction([[queue.key]]);
  const decide = (decision: string) =>
    run(
      decision,
      'POST',
      `${queue.path}/${a.uid}/review`,
      { decision, reason, ...(a.kind === 'company' ? { kind: 'company' } : {}) },
      t('admin.kyc.done'),
    );
  const documentUrl = (d: Document) => `/api/v2/admin${queue.path}/${a.uid}/documents/${d.id}`;
  return (
    <Paper
      withBorder
      p="md"
      data-testid="admin-applicant"
      data-uid={a.uid}
      data-kind={a.kind ?? 'individual'}
    >
      <Stack gap="xs">
        <Text fw={600}>
          {[a.first_name, a.last_name].filter(Boolean).join(' ')} · {a.email} · {a.country} ·{' '}
          {a.dob ?? a.id_type}
        </Text>
        {a.company && <CompanyFacts company={a.company} />}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {a.documents.map((d) =>
            d.mime_type.startsWith('image/') ? (
              <Image
                key={d.id}
                src={documentUrl(d)}
                alt={`${d.type}${d.side ? ` ${d.side}` : ''}`}
                h={160}
                fit="contain"
              />
            ) : (
              <a key={d.id} href={documentUrl(d)} target="_blank" rel="noreferrer">
                {d.type}
              </a>
            ),
          )}
        </SimpleGrid>
        {own ? (
          <OwnAccountNote />
        ) : (
          <>
            <TextInput
              label={t('admin.kyc.reason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <Group>
              {queue.decisions.map((d) => (
                <Button
                  key={d.decision}
                  color={d.color}
                  variant={d.color === 'teal' ? 'filled' : 'light'}
                  loading={busy === d.decision}
                  onClick={() => decide(d.decision)}
                >
                  {d.label}
                </Button>
              ))}
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** A company case: what the business account declared, for the reviewer to hold against its documents. */
function CompanyFacts({ company: c }: { company: NonNullable<Applicant['company']> }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-testid="admin-company">
      <Text>
        {t('admin.kyc.company')}: <b>{c.name}</b> · {c.registration_number} · {c.country} · {c.address}
      </Text>
      <Text size="sm">
        {t('admin.kyc.extractIssued')}: {c.register_extract_issued_on ?? '—'}
      </Text>
      {c.representatives.map((r) => (
        <Text size="sm" key={`${r.name}-${r.role}`}>
          {r.name} · {t(`company.role.${r.role}`)}
          {r.ownership !== null ? ` · ${r.ownership} %` : ''}
        </Text>
      ))}
    </Stack>
  );
}
