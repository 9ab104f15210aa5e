import { STATEMENT_PAGE_SIZE, type StatementTransaction } from '@exchange/shared';
import {
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Amount, longDate } from '../../components/format.tsx';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';
import { Pager } from '../wallet/HistoryTable.tsx';
import { useCards, useStatement } from './api.ts';
import { cardCodeText, cardErrorText } from './format.ts';
import { LabelledValue } from './LabelledValue.tsx';
import {
  type StatementDraft as Draft,
  defaultStatementRange,
  type StatementFilters as Filters,
  tradeTypeLabel,
  truncateRemark,
  utcDay,
  validateStatement,
} from './money.ts';

const TYPES = ['Settled', 'Unsettled'] as const;
const CURRENCIES = ['USDT', 'EUR'] as const;

/** The detail dialog of a statement row (docs/cards.md#screens). */
function StatementDetail({ row, onClose }: { row: StatementTransaction; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} centered title={t('card.statement.detail')}>
      <Stack data-testid="statement-detail">
        <SimpleGrid cols={2}>
          <LabelledValue label={t('card.statement.txnAmount')} testId="statement-detail-txn-amount">
            {`${row.txnAmount} ${row.currencyTxn}`}
          </LabelledValue>
          <LabelledValue label={t('card.statement.billAmount')} testId="statement-detail-bill-amount">
            {row.billAmount}
          </LabelledValue>
          <LabelledValue label={t('card.statement.fee')} testId="statement-detail-fee">
            {row.fee}
          </LabelledValue>
          <LabelledValue label={t('card.statement.rate')} testId="statement-detail-rate">
            {row.exchangeRate}
          </LabelledValue>
          <LabelledValue label={t('card.statement.cardNo')} testId="statement-detail-card">
            {row.cardNo}
          </LabelledValue>
          <LabelledValue label={t('card.statement.date')} testId="statement-detail-date">
            {longDate(row.businessDate)}
          </LabelledValue>
          <LabelledValue label={t('card.statement.remark')} testId="statement-detail-remark">
            <span title={row.remark}>{truncateRemark(row.remark)}</span>
          </LabelledValue>
          <LabelledValue label={t('card.statement.status')} testId="statement-detail-status">
            {t(`card.statement.tradeStatus.${row.tradeStatus}`, { defaultValue: row.tradeStatus })}
          </LabelledValue>
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="statement-detail-close">
            {t('card.statement.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * `/view_statement` (docs/cards.md#screens, #validation, #constants): card, transaction type, currency and a period of at most 30 days (default
 * the last 30, no future dates); "VIEW DETAILED STATEMENT" shows 10 rows a page; a row opens its details.
 */
export function StatementPage() {
  const { t } = useTranslation();
  const cards = useCards(true);
  const [today] = useState(() => utcDay(new Date()));
  const [draft, setDraft] = useState<Draft>(() => ({
    card_number: '',
    transaction_type: 'Settled',
    currency: 'USDT',
    ...defaultStatementRange(today),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [filters, setFilters] = useState<Filters>();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<StatementTransaction>();
  const statement = useStatement(filters, page);
  const list = cards.data ?? [];
  const cardNumber = draft.card_number || list[0]?.card_number || '';

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors({});
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const result = validateStatement({ ...draft, card_number: cardNumber }, today);
    if ('errors' in result) return setErrors(result.errors);
    setErrors({});
    setPage(1);
    setFilters(result.filters);
  };
  const error = (key: string) => (errors[key] ? cardCodeText(t, errors[key]) : undefined);

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Group justify="space-between">
          <Title order={2}>{t('card.statement.title')}</Title>
          <Anchor component={Link} to="/card">
            {t('nav.card')}
          </Anchor>
        </Group>
        {cards.isSuccess && list.length === 0 && <Text c="dimmed">{t('card.statement.noCards')}</Text>}
        <Paper withBorder p="md">
          <form onSubmit={submit} noValidate data-testid="statement-form">
            <Group align="flex-start">
              <Select
                label={t('card.statement.card')}
                data={list.map((c) => c.card_number)}
                value={cardNumber || null}
                onChange={(v) => v && set('card_number', v)}
                allowDeselect={false}
                error={error('card_number')}
                data-testid="statement-card"
              />
              <Select
                label={t('card.statement.type')}
                data={TYPES.map((v) => ({ value: v, label: t(`card.statement.type.${v}`) }))}
                value={draft.transaction_type}
                onChange={(v) => v && set('transaction_type', v as Draft['transaction_type'])}
                allowDeselect={false}
                error={error('transaction_type')}
                data-testid="statement-type"
              />
              <Select
                label={t('card.statement.currency')}
                data={[...CURRENCIES]}
                value={draft.currency}
                onChange={(v) => v && set('currency', v as Draft['currency'])}
                allowDeselect={false}
                error={error('currency')}
                data-testid="statement-currency"
              />
              <TextInput
                type="date"
                label={t('card.statement.from')}
                value={draft.date_from}
                max={today}
                onChange={(e) => set('date_from', e.currentTarget.value)}
                error={error('date_from')}
                data-testid="statement-from"
              />
              <TextInput
                type="date"
                label={t('card.statement.to')}
                value={draft.date_to}
                max={today}
                onChange={(e) => set('date_to', e.currentTarget.value)}
                error={error('date_to')}
                data-testid="statement-to"
              />
              <Button type="submit" mt={24} loading={statement.isFetching} data-testid="statement-submit">
                {t('card.statement.submit')}
              </Button>
            </Group>
          </form>
        </Paper>
        {!filters && <Text c="dimmed">{t('card.statement.hint')}</Text>}
        {filters && statement.isPending && <Loader size="sm" aria-label={t('card.statement.title')} />}
        {statement.isError && (
          <Text c="red" size="sm" role="alert" data-testid="statement-error">
            {cardErrorText(t, statement.error)}
          </Text>
        )}
        {statement.data && (
          <Stack gap="xs">
            <Table.ScrollContainer minWidth={760}>
              <Table fz="sm" striped highlightOnHover data-testid="statement-table">
                <TableHead
                  labels={[
                    'tradeId',
                    'cardNo',
                    'date',
                    'currency',
                    'amount',
                    'fee',
                    'tradeType',
                    'status',
                  ].map((c) => t(`card.statement.${c}`))}
                />
                <Table.Tbody>
                  {statement.data.items.map((row) => (
                    <Table.Tr
                      key={row.tradeId}
                      onClick={() => setOpen(row)}
                      onKeyDown={(e) => {
                        if (e.key !== 'Enter' && e.key !== ' ') return;
                        // Space activates the row, as on a button, instead of scrolling the page.
                        e.preventDefault();
                        setOpen(row);
                      }}
                      tabIndex={0}
                      style={{ cursor: 'pointer' }}
                      data-testid="statement-row"
                    >
                      <Table.Td data-testid="statement-row-trade-id">{row.tradeId}</Table.Td>
                      <Table.Td>{row.cardNo}</Table.Td>
                      <Table.Td>{longDate(row.businessDate)}</Table.Td>
                      <Table.Td>{row.currency}</Table.Td>
                      <Table.Td data-testid="statement-row-amount">
                        <Amount value={row.amount} />
                      </Table.Td>
                      <Table.Td data-testid="statement-row-fee">
                        <Amount value={row.fee} />
                      </Table.Td>
                      <Table.Td data-testid="statement-row-type">{tradeTypeLabel(row.tradeType)}</Table.Td>
                      <Table.Td data-testid="statement-row-status">
                        {t(`card.statement.tradeStatus.${row.tradeStatus}`, {
                          defaultValue: row.tradeStatus,
                        })}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {statement.data.items.length === 0 && <NoRecords />}
            </Table.ScrollContainer>
            <Pager
              total={statement.data.totalItem}
              page={page}
              limit={STATEMENT_PAGE_SIZE}
              onChange={setPage}
            />
          </Stack>
        )}
      </Stack>
      {open && <StatementDetail row={open} onClose={() => setOpen(undefined)} />}
    </Container>
  );
}
