import { LIMITS } from '@exchange/shared';
import {
  ActionIcon,
  Alert,
  Button,
  Container,
  Group,
  Modal,
  Pagination,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { api, apiPage } from '../../api/client.ts';
import { useCurrentUser } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { CopyField } from '../auth/components/CopyField.tsx';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from '../settings/kyc.ts';
import { TotpModal } from './TotpModal.tsx';

/** An API key as listed (the secret is never listed). */
export interface ApiKey {
  kid: string;
  algorithm: string;
  state: 'active' | 'inactive';
  /** The addresses and ranges the key may be used from; empty: any address. */
  allowed_ips: string[];
  created_at: string;
  updated_at: string;
}

/** A freshly created key: the only time its secret is shown. */
interface CreatedKey extends ApiKey {
  secret?: string;
  accessKey?: string;
  secretKey?: string;
}

type Action =
  | { kind: 'create' }
  | { kind: 'toggle'; key: ApiKey }
  | { kind: 'ips'; key: ApiKey }
  | { kind: 'delete'; key: ApiKey };

/** The allowed IPs as typed: one per line, or separated by commas or spaces. */
const ipList = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

const KEYS_QUERY = 'apiKeys';

function TrashIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </svg>
  );
}

/** My Api Tokens (`/api-tokens`, docs/accounts.md#screens, #states, #permissions): list, toggle, delete, create; 2FA required. */
export function ApiTokensPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: user } = useCurrentUser();
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<Action | null>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [allowedIps, setAllowedIps] = useState('');
  const open = (next: Action) => {
    setAllowedIps(next.kind === 'ips' ? next.key.allowed_ips.join('\n') : '');
    setAction(next);
  };
  const list = useQuery({
    queryKey: [KEYS_QUERY, page],
    queryFn: () =>
      apiPage<ApiKey>('barong', '/resource/api_keys', {
        // Newest first (the server's default order is Barong's, oldest first).
        query: { page, limit: LIMITS.tablePageLimit, ordering: 'desc' },
      }),
    enabled: Boolean(user?.otp),
    placeholderData: keepPreviousData,
  });

  if (!user?.otp) return <Navigate to="/settings" replace />;

  const perform = async (totpCode: string) => {
    if (!action) return;
    if (action.kind === 'create') {
      const key = await api<CreatedKey>('barong', '/resource/api_keys', {
        method: 'POST',
        body: { algorithm: 'HS256', totp_code: totpCode, allowed_ips: ipList(allowedIps) },
      });
      setCreated(key);
      toast.success(t('identity.apiKeys.created'));
    } else if (action.kind === 'toggle') {
      const state = action.key.state === 'active' ? 'inactive' : 'active';
      await api('barong', `/resource/api_keys/${encodeURIComponent(action.key.kid)}`, {
        method: 'PATCH',
        body: { state, totp_code: totpCode },
      });
      toast.success(t('identity.apiKeys.updated'));
    } else if (action.kind === 'ips') {
      await api('barong', `/resource/api_keys/${encodeURIComponent(action.key.kid)}`, {
        method: 'PATCH',
        body: { allowed_ips: ipList(allowedIps), totp_code: totpCode },
      });
      toast.success(t('identity.apiKeys.updated'));
    } else {
      await api('barong', `/resource/api_keys/${encodeURIComponent(action.key.kid)}`, {
        method: 'DELETE',
        query: { totp_code: totpCode },
      });
      toast.success(t('identity.apiKeys.deleted'));
    }
    setAction(null);
    await client.invalidateQueries({ queryKey: [KEYS_QUERY] });
  };

  const items = list.data?.items ?? [];
  const ipsText = (key: ApiKey) =>
    key.allowed_ips.length ? key.allowed_ips.join(', ') : t('identity.apiKeys.anyIp');
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / LIMITS.tablePageLimit));
  const title =
    action?.kind === 'create'
      ? t('identity.apiKeys.createTitle')
      : action?.kind === 'toggle'
        ? t('identity.apiKeys.toggleTitle')
        : action?.kind === 'ips'
          ? t('identity.apiKeys.ipsTitle')
          : t('identity.apiKeys.deleteTitle');

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Group justify="space-between">
          <Title order={2}>{t('identity.apiKeys.title')}</Title>
          <Button onClick={() => open({ kind: 'create' })} data-testid="api-key-create">
            {t('identity.apiKeys.createNew')}
          </Button>
        </Group>
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" data-testid="api-keys-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('identity.apiKeys.kid')}</Table.Th>
                  <Table.Th>{t('identity.apiKeys.algorithm')}</Table.Th>
                  <Table.Th>{t('identity.apiKeys.state')}</Table.Th>
                  <Table.Th>{t('identity.apiKeys.allowedIps')}</Table.Th>
                  <Table.Th>{t('identity.apiKeys.createdAt')}</Table.Th>
                  <Table.Th>{t('identity.apiKeys.updatedAt')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((key) => (
                  <Table.Tr key={key.kid} data-testid="api-key-row">
                    <Table.Td style={{ fontFamily: 'monospace' }}>{key.kid}</Table.Td>
                    <Table.Td>{key.algorithm}</Table.Td>
                    <Table.Td>
                      <Switch
                        checked={key.state === 'active'}
                        onChange={() => open({ kind: 'toggle', key })}
                        label={t(`identity.apiKeys.${key.state}`)}
                        // The name starts with the visible label (WCAG 2.5.3 label in name) and says which key.
                        aria-label={t('identity.apiKeys.toggle', {
                          state: t(`identity.apiKeys.${key.state}`),
                          kid: key.kid,
                        })}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => open({ kind: 'ips', key })}
                        // The name starts with the visible text (WCAG 2.5.3 label in name) and says which key.
                        aria-label={t('identity.apiKeys.editIps', { ips: ipsText(key), kid: key.kid })}
                        style={{ fontFamily: key.allowed_ips.length ? 'monospace' : undefined }}
                      >
                        {ipsText(key)}
                      </Button>
                    </Table.Td>
                    <Table.Td>{formatDateTime(key.created_at)}</Table.Td>
                    <Table.Td>{formatDateTime(key.updated_at)}</Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => open({ kind: 'delete', key })}
                        aria-label={t('identity.apiKeys.delete', { kid: key.kid })}
                      >
                        <TrashIcon />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.isSuccess && items.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {t('identity.apiKeys.empty')}
            </Text>
          )}
          {list.isError && (
            <Alert color="red" m="md">
              {errorText(t, list.error)}
            </Alert>
          )}
        </Paper>
        {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} />}
      </Stack>
      {action && (
        <TotpModal title={title} onSubmit={perform} onClose={() => setAction(null)}>
          {(action.kind === 'create' || action.kind === 'ips') && (
            <Textarea
              label={t('identity.apiKeys.allowedIps')}
              description={t('identity.apiKeys.allowedIpsHint')}
              placeholder={'203.0.113.7\n198.51.100.0/24'}
              autosize
              minRows={2}
              value={allowedIps}
              onChange={(e) => setAllowedIps(e.currentTarget.value)}
              data-testid="api-key-allowed-ips"
            />
          )}
        </TotpModal>
      )}
      {created && (
        <Modal opened onClose={() => setCreated(null)} centered title={t('identity.apiKeys.createdTitle')}>
          <Stack>
            <Alert color="yellow">{t('identity.apiKeys.secretOnce')}</Alert>
            <CopyField
              label={t('identity.apiKeys.accessKey')}
              value={created.accessKey ?? created.kid}
              testId="api-key-access"
            />
            <CopyField
              label={t('identity.apiKeys.secretKey')}
              value={created.secretKey ?? created.secret ?? ''}
              testId="api-key-secret"
            />
            <Button onClick={() => setCreated(null)}>{t('identity.apiKeys.done')}</Button>
          </Stack>
        </Modal>
      )}
    </Container>
  );
}
