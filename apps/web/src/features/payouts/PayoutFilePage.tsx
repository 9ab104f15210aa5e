import { executePayoutSchema, type PayoutFileDetail } from '@exchange/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '../../app/toast.ts';
import { CodeConfirmModal } from '../../components/CodeConfirmModal.tsx';
import { TableHead } from '../../components/TableHead.tsx';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from '../settings/kyc.ts';
import { discardPayout, executePayout, getPayout, PAYOUTS_QUERY } from './api.ts';

/** Row states after which nothing changes any more: the page stops asking once every row is in one. */
const FINAL = new Set(['succeed', 'failed', 'rejected', 'canceled', 'refused', 'skipped']);
/** How often the page asks for the file while rows are still moving. */
const POLL_MS = 2_000;

/**
 * One payout file (issue 31, part 3): its totals and every row with its state, the one-code execution of a checked
 * file, and its progress afterwards (asked again every two seconds until every row has settled).
 */
export function PayoutFilePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [asking, setAsking] = useState(false);
  const file = useQuery({
    queryKey: [PAYOUTS_QUERY, id],
    queryFn: () => getPayout(id),
    retry: false,
    refetchInterval: (query) => (moving(query.state.data) ? POLL_MS : false),
  });
  const discard = useMutation({
    mutationFn: () => discardPayout(id),
    onSuccess: async () => {
      toast.success(t('payouts.discarded'));
      await queries.invalidateQueries({ queryKey: [PAYOUTS_QUERY] });
      navigate('/payouts');
    },
    onError: (err) => toast.error(errorText(t, err)),
  });

  const data = file.data;
  return (
    <Container size="xl" py="xl">
      <Stack>
        <Anchor component={Link} to="/payouts" size="sm">
          {t('payouts.back')}
        </Anchor>
        <Title order={1}>{data ? data.file_name : t('payouts.title')}</Title>
        {file.isError && <Alert color="red">{errorText(t, file.error)}</Alert>}
        {data && (
          <>
            <Paper withBorder p="lg">
              <Stack gap="xs">
                <Group>
                  <Text fw={500}>{t('payouts.col.state')}:</Text>
                  <Badge data-testid="payout-file-state" data-state={data.state}>
                    {t(`payouts.file.${data.state}`)}
                  </Badge>
                  <Text size="sm" c="dimmed">
                    {formatDateTime(data.created_at)}
                  </Text>
                </Group>
                {data.totals.map((total) => (
                  <Text size="sm" key={total.currency}>
                    {t('payouts.totals')}:{' '}
                    {t('payouts.totalLine', { ...total, currency: total.currency.toUpperCase() })}
                  </Text>
                ))}
                <Text size="sm" data-testid="payout-progress">
                  {t('payouts.progress')}:{' '}
                  {Object.entries(data.progress)
                    .map(([state, n]) => `${t(`payouts.row.${state}`)} ${n}`)
                    .join(' · ')}
                </Text>
                {data.state === 'validated' && (
                  <Group>
                    <Button onClick={() => setAsking(true)} data-testid="payout-execute">
                      {t('payouts.execute')}
                    </Button>
                    <Button variant="default" loading={discard.isPending} onClick={() => discard.mutate()}>
                      {t('payouts.discard')}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Paper>
            <RowsTable file={data} />
          </>
        )}
      </Stack>
      {asking && data && (
        <ExecuteModal
          file={data}
          onClose={() => setAsking(false)}
          onDone={async () => {
            setAsking(false);
            toast.success(t('payouts.started'));
            await queries.invalidateQueries({ queryKey: [PAYOUTS_QUERY] });
          }}
        />
      )}
    </Container>
  );
}

/** True while the file or one of its rows may still change. */
function moving(file: PayoutFileDetail | undefined): boolean {
  if (!file || file.state === 'validated') return false;
  return file.state === 'executing' || file.rows.some((r) => !FINAL.has(r.state));
}

function RowsTable({ file }: { file: PayoutFileDetail }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table fz="sm" striped data-testid="payout-rows">
        <TableHead
          labels={[
            t('payouts.col.row'),
            t('payouts.col.currency'),
            t('payouts.col.network'),
            t('payouts.col.recipient'),
            t('payouts.col.amount'),
            t('payouts.col.fee'),
            t('payouts.col.reference'),
            t('payouts.col.state'),
            t('payouts.col.txid'),
          ]}
        />
        <Table.Tbody>
          {file.rows.map((r) => (
            <Table.Tr key={r.row} data-testid={`payout-row-${r.row}`}>
              <Table.Td>{r.row}</Table.Td>
              <Table.Td>{r.currency.toUpperCase()}</Table.Td>
              <Table.Td>{r.blockchain_key}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{r.recipient}</Table.Td>
              <Table.Td>{r.amount}</Table.Td>
              <Table.Td>{r.fee}</Table.Td>
              <Table.Td>{r.reference}</Table.Td>
              <Table.Td data-testid="payout-row-state" data-state={r.state}>
                {t(`payouts.row.${r.state}`, { defaultValue: r.state })}
                {r.state === 'refused' && r.error ? ` (${t(r.error.split(',')[0] ?? 'server.error')})` : ''}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{r.txid ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The one authenticator code that runs the whole file. */
function ExecuteModal({
  file,
  onClose,
  onDone,
}: {
  file: PayoutFileDetail;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const { t } = useTranslation();
  return (
    <CodeConfirmModal
      title={t('payouts.executeTitle', { count: file.row_count })}
      code={{
        field: 'otp',
        label: t('payouts.totpLabel'),
        hint: t('payouts.executeHint'),
        testId: 'payout-totp',
      }}
      check={(code) => executePayoutSchema.safeParse({ otp: code })}
      onSubmit={async ({ otp }) => {
        await executePayout(file.id, otp);
        await onDone();
      }}
      onClose={onClose}
      submit={{ label: t('payouts.confirm'), testId: 'payout-confirm' }}
    />
  );
}
