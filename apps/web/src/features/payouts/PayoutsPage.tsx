import { PAYOUT_ERRORS } from '@exchange/shared';
import {
  Alert,
  Anchor,
  Button,
  Code,
  Container,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from '../settings/kyc.ts';
import { duplicateOf, listPayouts, notBusiness, PAYOUTS_QUERY, rejectionOf, uploadPayout } from './api.ts';

const EXAMPLE = `currency,network,recipient,amount,reference
usdt,tron-sim,TJRabPrwbZy45sbavfcjinPJC18kjpRTv8,25.50,Invoice 1042
trx,tron-sim,partner@example.com,100,March commission`;

/**
 * Wallet › Mass payouts (issue 31, part 3), for verified businesses: upload a CSV file, see every invalid row with
 * its problems, fix and upload again; a valid file opens its own page to be executed and followed.
 */
export function PayoutsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const files = useQuery({ queryKey: [PAYOUTS_QUERY], queryFn: listPayouts, retry: false });
  const upload = useMutation({
    mutationFn: uploadPayout,
    onSuccess: async (created) => {
      await queries.invalidateQueries({ queryKey: [PAYOUTS_QUERY] });
      navigate(`/payouts/${created.id}`);
    },
  });

  if (files.isError && notBusiness(files.error))
    return (
      <Container size="md" py="xl">
        <Title order={1} mb="md">
          {t('payouts.title')}
        </Title>
        <Alert color="blue" data-testid="payouts-business-only">
          {t(PAYOUT_ERRORS.businessRequired)}
        </Alert>
      </Container>
    );

  const rejection = upload.isError ? rejectionOf(upload.error) : { rows: [], shortfall: [] };
  const duplicate = upload.isError ? duplicateOf(upload.error) : null;
  const fileErrors = upload.error instanceof ApiError ? upload.error.errors : [];

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={1}>{t('payouts.title')}</Title>
        <Paper withBorder p="lg">
          <Stack>
            <Text size="sm">{t('payouts.hint')}</Text>
            <Text size="sm" fw={500}>
              {t('payouts.example')}
            </Text>
            <Code block>{EXAMPLE}</Code>
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                if (file) upload.mutate(file);
              }}
            >
              <Group align="flex-end">
                <Stack gap={4}>
                  <Text component="label" htmlFor={inputId} size="sm" fw={500}>
                    {t('payouts.file')}
                  </Text>
                  <input
                    id={inputId}
                    type="file"
                    accept=".csv,text/csv"
                    data-testid="payout-file"
                    onChange={(event) => {
                      const chosen = event.currentTarget.files?.[0] ?? null;
                      setFile(chosen);
                      upload.reset();
                    }}
                  />
                </Stack>
                <Button type="submit" disabled={!file} loading={upload.isPending} data-testid="payout-check">
                  {t('payouts.check')}
                </Button>
              </Group>
            </form>
            {upload.isError && (
              <Alert color="red" role="alert" data-testid="payout-upload-error">
                <Stack gap="xs">
                  <Text size="sm">
                    {fileErrors.includes(PAYOUT_ERRORS.rowsInvalid)
                      ? t('payouts.rejected')
                      : errorText(t, upload.error)}
                  </Text>
                  {fileErrors.includes(PAYOUT_ERRORS.rowsInvalid) &&
                    fileErrors.includes(PAYOUT_ERRORS.insufficientBalance) && (
                      <Text size="sm">{t(PAYOUT_ERRORS.insufficientBalance)}</Text>
                    )}
                  {rejection.shortfall.map((s) => (
                    <Text size="sm" key={s.currency} data-testid="payout-shortfall">
                      {t('payouts.shortfall', { ...s, currency: s.currency.toUpperCase() })}
                    </Text>
                  ))}
                  {duplicate !== null && (
                    <Anchor component={Link} to={`/payouts/${duplicate}`} size="sm">
                      {t('payouts.duplicateOpen')}
                    </Anchor>
                  )}
                </Stack>
              </Alert>
            )}
            {rejection.rows.length > 0 && (
              <Table.ScrollContainer minWidth={480}>
                <Table fz="sm" striped data-testid="payout-row-errors">
                  <caption>{t('payouts.rowErrors')}</caption>
                  <TableHead labels={[t('payouts.col.row'), t('payouts.col.errors')]} />
                  <Table.Tbody>
                    {rejection.rows.map((r) => (
                      <Table.Tr key={r.row} data-testid={`payout-row-error-${r.row}`}>
                        <Table.Td>{r.row}</Table.Td>
                        <Table.Td>{r.errors.map((code) => t(code)).join(' ')}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h3" mb="sm">
            {t('payouts.files')}
          </Title>
          {files.isError && <Alert color="red">{errorText(t, files.error)}</Alert>}
          <Table.ScrollContainer minWidth={560}>
            <Table fz="sm" striped data-testid="payout-files">
              <TableHead
                labels={[
                  t('payouts.col.file'),
                  t('payouts.col.uploaded'),
                  t('payouts.col.rows'),
                  t('payouts.col.state'),
                  '',
                ]}
              />
              <Table.Tbody>
                {(files.data ?? []).map((f) => (
                  <Table.Tr key={f.id} data-testid="payout-file-row">
                    <Table.Td>{f.file_name}</Table.Td>
                    <Table.Td>{formatDateTime(f.created_at)}</Table.Td>
                    <Table.Td>{f.row_count}</Table.Td>
                    <Table.Td>{t(`payouts.file.${f.state}`)}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/payouts/${f.id}`}>
                        {t('payouts.open')}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {files.isSuccess && files.data.length === 0 && <NoRecords />}
        </Paper>
      </Stack>
    </Container>
  );
}
