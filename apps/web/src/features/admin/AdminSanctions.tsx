import { type AdminSanctionsHit, type AdminSanctionsList, decideSanctionsHitSchema } from '@exchange/shared';
import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { OwnAccountNote } from './OwnAccountNote.tsx';
import { useAdminAction } from './useAdminAction.ts';

const HITS = ['adminSanctionsHits'];
type Filter = 'open' | 'false_positive' | 'confirmed' | 'all';

/**
 * Compliance: sanctions screening hits, each with the customer's name that matched, the list entry it matched and
 * the score. An open hit freezes the customer's withdrawals; compliance decides it as a false positive (they open
 * again) or confirmed (they stay frozen), with a reason for the trail. Never on one's own account (the server
 * refuses it too).
 */
export function AdminSanctions({ me }: { me: string }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('open');
  const list = useQuery({
    queryKey: ['adminSanctionsList'],
    queryFn: () => api<AdminSanctionsList>('admin', '/sanctions/list'),
  });
  const hits = useQuery({
    queryKey: [...HITS, filter],
    queryFn: () => api<AdminSanctionsHit[]>('admin', `/sanctions/hits?state=${filter}`),
  });
  const current = list.data?.list;
  return (
    <Stack>
      <Title order={4}>{t('admin.sanctions.title')}</Title>
      {list.data && (
        <Text size="sm" c="dimmed" data-testid="admin-sanctions-list">
          {current
            ? t('admin.sanctions.list', {
                file: current.file_name,
                generated: current.generated_at ?? '—',
                entities: current.entities,
                names: current.names,
                imported: new Date(current.imported_at).toLocaleString(),
                sha: current.sha256.slice(0, 12),
                threshold: list.data.threshold,
              })
            : t('admin.sanctions.noList')}
        </Text>
      )}
      <SegmentedControl
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        data={(['open', 'false_positive', 'confirmed', 'all'] as const).map((value) => ({
          value,
          label: t(`admin.sanctions.state.${value}`),
        }))}
        w="fit-content"
      />
      {hits.data?.length === 0 && <Text c="dimmed">{t('admin.sanctions.empty')}</Text>}
      <Stack data-testid="admin-sanctions-hits">
        {(hits.data ?? []).map((h) => (
          <Hit key={h.id} hit={h} me={me} />
        ))}
      </Stack>
    </Stack>
  );
}

function Hit({ hit: h, me }: { hit: AdminSanctionsHit; me: string }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const { run, busy } = useAdminAction([HITS]);
  const own = h.uid === me;
  const decide = (decision: 'false_positive' | 'confirmed') =>
    run(
      decision,
      'POST',
      `/sanctions/hits/${h.id}/decide`,
      { decision, reason },
      undefined,
      decideSanctionsHitSchema,
    );
  return (
    <Paper withBorder p="md" data-testid="admin-sanctions-hit" data-id={h.id}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>
            {h.email} · {h.uid}
          </Text>
          <Group gap="xs">
            <Badge color={h.score >= 95 ? 'red' : 'orange'} data-testid="sanctions-score">
              {t('admin.sanctions.score', { score: h.score })}
            </Badge>
            <Badge variant="light">{t(`admin.sanctions.state.${h.state}`)}</Badge>
          </Group>
        </Group>
        <Text size="sm">
          {t('admin.sanctions.matched', {
            kind: t(`admin.sanctions.kind.${h.subject_kind}`),
            name: h.subject_name,
          })}
        </Text>
        <Text size="sm">
          {t('admin.sanctions.entry', {
            name: h.entry_name,
            type: h.entry_subject_type,
            reference: h.entry_reference ?? h.entry_logical_id,
            regulation: h.entry_regulation ?? '—',
          })}
        </Text>
        {h.state === 'open' ? (
          <Group align="end">
            <TextInput
              label={t('admin.sanctions.reason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              w={360}
              disabled={own}
              data-testid="sanctions-reason"
            />
            <Button
              color="teal"
              disabled={own}
              loading={busy === 'false_positive'}
              onClick={() => decide('false_positive')}
              data-testid="sanctions-false-positive"
            >
              {t('admin.sanctions.falsePositive')}
            </Button>
            <Button
              color="red"
              variant="light"
              disabled={own}
              loading={busy === 'confirmed'}
              onClick={() => decide('confirmed')}
              data-testid="sanctions-confirm"
            >
              {t('admin.sanctions.confirm')}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.sanctions.decided', {
              by: h.decided_by ?? '—',
              at: h.decided_at ? new Date(h.decided_at).toLocaleString() : '—',
              reason: h.reason ?? '—',
            })}
          </Text>
        )}
        {own && <OwnAccountNote />}
      </Stack>
    </Paper>
  );
}
