import type { CardTransactionInput, StatementPage, StatementTransaction } from '@exchange/shared';
import type { IssuerTransaction } from '../../adapters/card-issuer/port.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { type CardContext, viaIssuer } from './context.ts';
import { maskedNumber } from './presenters.ts';
import type { CardRow } from './repository.ts';

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
    return { items: page.data.map((t) => row(card, t, q.currency)), totalItem: page.total };
  }
}

function row(card: CardRow, t: IssuerTransaction, currency: 'USDT' | 'EUR'): StatementTransaction {
  const network = t.currency_conversion?.network;
  const eur = network?.original_amount ?? '0';
  const reason = (t as { decline_reason?: string | null }).decline_reason;
  return {
    tradeId: t.token,
    cardNo: maskedNumber(card),
    currency,
    businessDate: t.created_time,
    amount: currency === 'USDT' ? t.amount : eur,
    fee: '0',
    tradeStatus: STATUS[t.state] ?? t.state.toLowerCase(),
    tradeType: t.type_code,
    remark: [t.card_acceptor?.name, reason].filter(Boolean).join(': '),
    currencyTxn: network?.original_currency_code ?? 'EUR',
    txnAmount: eur,
    billAmount: t.amount,
    exchangeRate: network?.conversion_rate ?? '',
  };
}
