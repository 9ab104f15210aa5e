import type { BankDeposit } from '@exchange/shared';
import { Alert, Anchor, Button, CopyButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { errorText } from '../auth/components/errors.ts';
import { useWalletHistory } from './api.ts';
import { HistoryTable } from './HistoryTable.tsx';

/** `RF18 EXAB 12CD 34EF`: the reference in groups of four, as people type it. */
const grouped = (text: string) => text.replace(/(.{4})(?=.)/g, '$1 ');

function Detail({
  label,
  value,
  copy,
  testId,
}: {
  label: string;
  value: string;
  copy?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Th w={180}>{label}</Table.Th>
      <Table.Td>
        <Group justify="space-between" wrap="nowrap">
          <Text ff="monospace" data-testid={testId} style={{ wordBreak: 'break-all' }}>
            {value}
          </Text>
          <CopyButton value={copy ?? value}>
            {({ copied, copy: doCopy }) => (
              <Button size="xs" variant="light" color={copied ? 'teal' : undefined} onClick={doCopy}>
                {copied ? t('wallet.deposit.copied') : t('wallet.deposit.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * `/deposit/eur`: EUR by bank transfer (SEPA) for a verified business: the exchange's collection account and the
 * customer's own reference, which says whose the money is; then the EUR deposits as they arrive. Anyone else is
 * told what the server says (bank deposits are for verified business accounts).
 */
export function BankDepositPage() {
  const { t } = useTranslation();
  const details = useQuery({
    queryKey: ['bankDeposit'],
    queryFn: () => api<BankDeposit>('peatio', '/account/bank_deposit'),
    retry: false,
  });
  const history = useWalletHistory('deposits', { currency: 'eur', page: 1, limit: 10 });
  const d = details.data;
  return (
    <Stack p="md">
      <Title order={2}>{t('wallet.bank.title')}</Title>
      <Paper withBorder p="md">
        <Title order={4} mb="sm">
          {t('wallet.bank.sepa')}
        </Title>
        {details.isError && (
          <Alert color="yellow" data-testid="bank-deposit-refused">
            {errorText(t, details.error)}
          </Alert>
        )}
        {d && (
          <Stack>
            <Text size="sm">{t('wallet.bank.intro')}</Text>
            <Table withRowBorders={false} data-testid="bank-deposit-details">
              <Table.Tbody>
                <Detail
                  label={t('wallet.bank.beneficiary')}
                  value={d.beneficiary}
                  testId="bank-beneficiary"
                />
                <Detail
                  label={t('wallet.bank.iban')}
                  value={grouped(d.iban)}
                  copy={d.iban}
                  testId="bank-iban"
                />
                <Detail label={t('wallet.bank.bic')} value={d.bic} testId="bank-bic" />
                <Detail
                  label={t('wallet.bank.reference')}
                  value={grouped(d.reference)}
                  copy={d.reference}
                  testId="bank-reference"
                />
              </Table.Tbody>
            </Table>
            <Alert color="blue">{t('wallet.bank.referenceNote')}</Alert>
            <Text size="sm" c="dimmed">
              {t('wallet.bank.timing')}
            </Text>
          </Stack>
        )}
      </Paper>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <Title order={4}>{t('wallet.recent.deposits')}</Title>
          <Anchor component={Link} to="/history/account" size="sm">
            {t('wallet.recent.all')}
          </Anchor>
        </Group>
        <HistoryTable kind="deposits" items={history.data?.items ?? []} testId="bank-deposit-history" />
      </Paper>
    </Stack>
  );
}
