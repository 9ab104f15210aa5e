import {
  AML_IDENTIFICATION_THRESHOLD_CENTS,
  AML_REPORT_THRESHOLD_CENTS,
  AML_RULES,
  type AmlRule,
  formatUnits,
} from '@exchange/shared';

/** What a monitored operation is. */
export type OperationKind = 'deposit' | 'withdrawal' | 'transfer_in' | 'transfer_out' | 'swap' | 'card_topup';

/** An operation as the rules see it (valued once, in EUR cents). */
export interface MonitoredOperation {
  id: number;
  kind: OperationKind;
  /** Null when the currency had no price: the value rules skip it, the territory rule still applies. */
  eurCents: bigint | null;
  counterpartyCountry: string | null;
}

/** The customer's other operations and standing that the rules compare against. */
export interface RuleContext {
  /** The customer's verification level (3: identity verified). */
  level: number;
  /** Value of the customer's other operations within the linked window (before this one), and their ids. */
  linkedBefore: bigint;
  linkedIds: number[];
  /** Within the pass-through window: money in (deposits, incoming transfers) and out (this one included). */
  recentIn: bigint;
  recentOut: bigint;
  recentIds: number[];
  highRiskCountries: ReadonlySet<string>;
}

/** A rule's hit: what opens an alert. */
export interface RuleHit {
  rule: AmlRule;
  eurCents: bigint | null;
  operationIds: number[];
  facts: Record<string, string | number | null>;
}

const eur = (cents: bigint) => formatUnits(cents, 2);
const OUTGOING: ReadonlySet<OperationKind> = new Set(['withdrawal', 'transfer_out']);
const CROSSING: ReadonlySet<OperationKind> = new Set([
  'deposit',
  'withdrawal',
  'transfer_in',
  'transfer_out',
]);

/**
 * The rules an operation hits (see `AML_RULES`). Pure: every amount is bigint EUR cents; the thresholds are
 * inclusive ("EUR 15,000 or more").
 */
export function evaluate(op: MonitoredOperation, ctx: RuleContext): RuleHit[] {
  const hits: RuleHit[] = [];
  const value = op.eurCents;
  if (value !== null) {
    if (value >= AML_REPORT_THRESHOLD_CENTS)
      hits.push({
        rule: AML_RULES.single,
        eurCents: value,
        operationIds: [op.id],
        facts: { kind: op.kind, eur: eur(value), threshold_eur: eur(AML_REPORT_THRESHOLD_CENTS) },
      });
    // Opened once, on the operation that takes the window's total over the line, when none reached it alone.
    const total = ctx.linkedBefore + value;
    if (
      value < AML_REPORT_THRESHOLD_CENTS &&
      ctx.linkedBefore < AML_REPORT_THRESHOLD_CENTS &&
      total >= AML_REPORT_THRESHOLD_CENTS
    )
      hits.push({
        rule: AML_RULES.linked,
        eurCents: total,
        operationIds: [...ctx.linkedIds, op.id],
        facts: {
          kind: op.kind,
          eur: eur(value),
          window_total_eur: eur(total),
          operations: ctx.linkedIds.length + 1,
          threshold_eur: eur(AML_REPORT_THRESHOLD_CENTS),
        },
      });
    if (ctx.level < 3 && value >= AML_IDENTIFICATION_THRESHOLD_CENTS)
      hits.push({
        rule: AML_RULES.identification,
        eurCents: value,
        operationIds: [op.id],
        facts: {
          kind: op.kind,
          eur: eur(value),
          level: ctx.level,
          threshold_eur: eur(AML_IDENTIFICATION_THRESHOLD_CENTS),
        },
      });
    // Half or more of what just came in leaves again (the withdrawal review's pass-through rule, across currencies).
    if (OUTGOING.has(op.kind) && ctx.recentIn > 0n && 2n * ctx.recentOut >= ctx.recentIn)
      hits.push({
        rule: AML_RULES.rapidInOut,
        eurCents: value,
        operationIds: [...ctx.recentIds, op.id],
        facts: { kind: op.kind, eur: eur(value), in_eur: eur(ctx.recentIn), out_eur: eur(ctx.recentOut) },
      });
  }
  const country = op.counterpartyCountry?.toUpperCase() ?? null;
  if (country && CROSSING.has(op.kind) && ctx.highRiskCountries.has(country))
    hits.push({
      rule: AML_RULES.highRiskTerritory,
      eurCents: value,
      operationIds: [op.id],
      facts: { kind: op.kind, eur: value === null ? null : eur(value), country },
    });
  return hits;
}
