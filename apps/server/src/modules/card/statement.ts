import {
  type CardTransactionInput,
  type StatementPage,
  type StatementTransaction,
  toUnits,
} from '@exchange/shared';
import type { IssuerTransaction } from '../../adapters/card-issuer/port.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { type CardContext, viaIssuer } from './context.ts';
import { fmtEur, fmtUsdt, rateUnits, USDT_DECIMALS, usdtToEurCents } from './money.ts';
import { maskedNumber } from './presenters.ts';
import type { CardRow } from './repository.ts';
import { topupFeesByToken } from './topup-repository.ts';

const STATUS: Record<string, string> = {
  PENDING: 'pending',
  COMPLETION: 'settled',
  DECLINED: 'declined',
  CLEARED: 'reversed',
};

/** `POST /account/card_transaction`: the statement of one of the user's cards, from the issuer. */
export class CardStatement {
  constructor(
    private readonly ctx: CardContext,
    private readonly resolve: (user: UserRecord, reference: string) => Promise<CardRow>,
  ) {}

  async page(user: UserRecord, q: CardTransactionInput): Promise<StatementPage> {
    const card = await this.resolve(user, q.card_number);
    const page = await viaIssuer(this.ctx, (issuer) =>
      issuer.listTransactions({
        card_token: card.issuer_token,
        start_date: q.date_from,
        end_date: q.date_to,
        settled: q.transaction_type === 'Settled',
        start_index: q.start,
        count: q.size,
      }),
    );
    const fees = await this.topupFees(card, page.data);
    return {
      items: page.data.map((t) => row(card, t, q.currency, fees.get(t.gpa_order?.token ?? '') ?? 0n)),
      totalItem: page.total,
    };
  }

  /**
   * Every transaction of one of the user's cards from the day it was ordered to `today` (YYYY-MM-DD, UTC): the
   * final ones (settled, declined, reversed), then the pending ones, in the statement's rows in USDT (the EUR
   * amounts beside them), `size` at a time (the data export). The issuer pages by offset, so a transaction that
   * arrives during the walk may shift a row into the next page twice or past it: the export says so.
   */
  async *all(card: CardRow, today: string, size = 100): AsyncGenerator<StatementTransaction[]> {
    const from = card.created_at.toISOString().slice(0, 10);
    for (const settled of [true, false])
      for (let start = 0; ; start += size) {
        const page = await viaIssuer(this.ctx, (issuer) =>
          issuer.listTransactions({
            card_token: card.issuer_token,
            start_date: from,
            end_date: today,
            settled,
            start_index: start,
            count: size,
          }),
        );
        const fees = await this.topupFees(card, page.data);
        yield page.data.map((t) => row(card, t, 'USDT', fees.get(t.gpa_order?.token ?? '') ?? 0n));
        if (!page.is_more || page.data.length === 0) break;
      }
  }

  /**
   * The fee each top-up on the page cost (issue 32): charged by us from the spot wallet on top of the amount, so
   * the issuer's `gpa.credit` does not carry it; found by the funding order's token, which is the top-up's.
   */
  private async topupFees(card: CardRow, transactions: IssuerTransaction[]): Promise<Map<string, bigint>> {
    const tokens = transactions.flatMap((t) => (t.gpa_order?.token ? [t.gpa_order.token] : []));
    if (tokens.length === 0) return new Map();
    const rows = await topupFeesByToken(this.ctx.db, card.id, tokens);
    return new Map(rows.map((r) => [r.issuer_token, toUnits(r.fee, USDT_DECIMALS)]));
  }
}

/** A fee in USDT units shown in the statement's currency: EUR at the row's own rate, rounded down. */
function feeIn(currency: 'USDT' | 'EUR', fee: bigint, rate: string | undefined): string {
  if (currency === 'USDT') return fmtUsdt(fee);
  return fmtEur(rate ? usdtToEurCents(fee, rateUnits(rate)) : 0n);
}

function row(
  card: CardRow,
  t: IssuerTransaction,
  currency: 'USDT' | 'EUR',
  fee: bigint,
): StatementTransaction {
  const network = t.currency_conversion?.network;
  const eur = network?.original_amount ?? '0';
  const reason = (t as { decline_reason?: string | null }).decline_reason;
  return {
    tradeId: t.token,
    cardNo: maskedNumber(card),
    currency,
    businessDate: t.created_time,
    amount: currency === 'USDT' ? t.amount : eur,
    fee: fee === 0n ? '0' : feeIn(currency, fee, network?.conversion_rate),
    tradeStatus: STATUS[t.state] ?? t.state.toLowerCase(),
    tradeType: t.type_code,
    remark: [t.card_acceptor?.name, reason].filter(Boolean).join(': '),
    currencyTxn: network?.original_currency_code ?? 'EUR',
    txnAmount: eur,
    billAmount: t.amount,
    exchangeRate: network?.conversion_rate ?? '',
  };
}
