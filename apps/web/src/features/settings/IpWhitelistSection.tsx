import { IP_WHITELIST } from '@exchange/shared';
import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import type { User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { TotpModal } from '../api-tokens/TotpModal.tsx';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from './kyc.ts';
import { SECURITY_LOG_QUERY } from './SecurityLogSection.tsx';

/** An entry of the login IP whitelist as `GET /resource/ip_whitelist` lists it. */
export interface IpWhitelistEntry {
  id: string;
  ip: string;
  created_at: string;
}

const WHITELIST_QUERY = 'ipWhitelist';

type Change = { kind: 'add'; ip: string } | { kind: 'remove'; entry: IpWhitelistEntry };

/**
 * Settings › IP whitelist (issue 31, part 2): the addresses and ranges this account may log in from. Empty means
 * any address. Adding and removing ask for an authenticator code, so the section needs two-factor on; the server
 * refuses a list that would shut out the address the change comes from.
 */
export function IpWhitelistSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [draft, setDraft] = useState('');
  const [change, setChange] = useState<Change | null>(null);
  const list = useQuery({
    queryKey: [WHITELIST_QUERY],
    queryFn: () => api<IpWhitelistEntry[]>('barong', '/resource/ip_whitelist'),
    enabled: Boolean(user.otp),
  });
  const items = list.data ?? [];

  const perform = async (totpCode: string) => {
    if (!change) return;
    if (change.kind === 'add') {
      await api('barong', '/resource/ip_whitelist', {
        method: 'POST',
        body: { ip: change.ip, totp_code: totpCode },
      });
      setDraft('');
      toast.success(t('ipWhitelist.added'));
    } else {
      await api('barong', `/resource/ip_whitelist/${encodeURIComponent(change.entry.id)}`, {
        method: 'DELETE',
        query: { totp_code: totpCode },
      });
      toast.success(t('ipWhitelist.removed'));
    }
    setChange(null);
    await Promise.all([
      client.invalidateQueries({ queryKey: [WHITELIST_QUERY] }),
      client.invalidateQueries({ queryKey: [SECURITY_LOG_QUERY] }),
    ]);
  };

  const add = (event: React.FormEvent) => {
    event.preventDefault();
    if (draft.trim()) setChange({ kind: 'add', ip: draft.trim() });
  };

  return (
    <Paper withBorder p="lg" data-testid="ip-whitelist-section">
      <Stack>
        <Stack gap={2}>
          <Title order={3}>{t('ipWhitelist.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('ipWhitelist.hint', { max: IP_WHITELIST.maxEntries })}
          </Text>
        </Stack>
        {!user.otp ? (
          <Alert color="gray">{t('ipWhitelist.needs2fa')}</Alert>
        ) : (
          <>
            <form onSubmit={add} noValidate>
              <Group align="flex-end">
                <TextInput
                  label={t('ipWhitelist.entry')}
                  placeholder="203.0.113.7, 203.0.113.0/24, 2001:db8::/32"
                  value={draft}
                  maxLength={IP_WHITELIST.entryLength}
                  onChange={(e) => setDraft(e.currentTarget.value)}
                  style={{ flex: 1 }}
                  data-testid="ip-whitelist-input"
                />
                <Button type="submit" disabled={!draft.trim()} data-testid="ip-whitelist-add">
                  {t('ipWhitelist.add')}
                </Button>
              </Group>
            </form>
            <Table verticalSpacing="xs" data-testid="ip-whitelist-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('ipWhitelist.entry')}</Table.Th>
                  <Table.Th>{t('ipWhitelist.addedAt')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="ip-whitelist-row">
                    <Table.Td style={{ fontFamily: 'monospace' }}>{entry.ip}</Table.Td>
                    <Table.Td>{formatDateTime(entry.created_at)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setChange({ kind: 'remove', entry })}
                        aria-label={t('ipWhitelist.removeLabel', { ip: entry.ip })}
                      >
                        {t('ipWhitelist.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {list.isSuccess && items.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('ipWhitelist.empty')}
              </Text>
            )}
            {list.isError && <Alert color="red">{errorText(t, list.error)}</Alert>}
          </>
        )}
      </Stack>
      {change && (
        <TotpModal
          title={
            change.kind === 'add'
              ? t('ipWhitelist.addTitle', { ip: change.ip })
              : t('ipWhitelist.removeTitle', { ip: change.entry.ip })
          }
          onSubmit={perform}
          onClose={() => setChange(null)}
        />
      )}
    </Paper>
  );
}
