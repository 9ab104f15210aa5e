import type { IncomingTravelRuleStatus } from '@exchange/shared';
import type pg from 'pg';
import { z } from 'zod';
import type { IncomingAnswer, TravelRulePort } from '../../../adapters/travel-rule/port.ts';
import { type Clock, dateOf } from '../../../clock.ts';
import type { TravelRuleConfig } from './config.ts';
import { recordIncomingAnswer } from './incoming-repository.ts';

/** Seconds between two questions to the travel-rule service about a deposit that waits for its record. */
export const INCOMING_RECHECK_SECONDS = 30;

/** What the check needs. */
export interface IncomingDeps {
  db: pg.Pool;
  port: TravelRulePort;
  config: Pick<TravelRuleConfig, 'incomingWaitMinutes' | 'providers'>;
  log: { warn(message: string): void };
  /** The app's clock (clock.ts): the wait for the originator's information and the re-asking gap run on it. */
  clock: Clock;
}

/** A chain deposit that reached its confirmations, as the check reads it. */
export interface IncomingDeposit {
  id: number | string;
  blockchain_key: string;
  txid: string;
  address: string;
  from_address: string | null;
  currency_id: string;
  amount: string;
  created_at: Date;
  travel_rule_status: IncomingTravelRuleStatus | null;
  /** When the service was last asked (null: never). */
  travel_rule_checked_at: Date | null;
}

const named = z.string().trim().min(1);
/** A person of IVMS 101 with a name: a natural person's name identifier, or a legal person's name. */
const namedPerson = z.union([
  z.object({
    naturalPerson: z.object({
      name: z.object({ nameIdentifier: z.array(z.object({ primaryIdentifier: named })).min(1) }),
    }),
  }),
  z.object({
    legalPerson: z.object({
      name: z.object({ nameIdentifier: z.array(z.object({ legalPersonName: named })).min(1) }),
    }),
  }),
]);
const originatorPart = z.object({
  originator: z.object({
    originatorPersons: z.array(z.unknown()),
    accountNumber: z.array(named).min(1),
  }),
});

/**
 * Whether a record delivered by the sending provider carries the originator's information this check asks for
 * (art. 14(1)(a)-(c) of Regulation (EU) 2023/1113): a named originator and their address or account number. The
 * record comes from outside: anything else, malformed included, is missing information.
 */
export function namesOriginator(payload: unknown): boolean {
  const parsed = originatorPart.safeParse(payload);
  return (
    parsed.success && parsed.data.originator.originatorPersons.some((p) => namedPerson.safeParse(p).success)
  );
}

/** Statuses under which a deposit is credited as usual. */
const CREDITED: readonly (IncomingTravelRuleStatus | null)[] = [
  'not_required',
  'unchecked',
  'received',
  'released',
];

/**
 * Whether a chain deposit that reached its confirmations may be credited now (Regulation (EU) 2023/1113, art.
 * 16-17). The travel-rule service is asked for the record the sending provider delivered and whose the sender's
 * address is:
 * - a record naming the originator: `received`, credited;
 * - no record, and the sender is not known as a provider's (a self-hosted wallet): `not_required`, credited;
 * - from a provider (by the sender's address, or a record that came without the information): `awaiting` while
 *   {@link TravelRuleConfig.incomingWaitMinutes} from when the deposit was first seen run, asked again every
 *   {@link INCOMING_RECHECK_SECONDS}; then `held` for compliance, who release or return it in the console;
 * - the service cannot be asked: `unchecked`, credited (a deposit is held only when it is known to come from a
 *   provider; the status leaves it visible for a later look, art. 16(1)).
 * The answer is kept on the deposit (`travel_rule`). A deposit already decided is never asked about again.
 */
export async function mayCreditIncoming(deps: IncomingDeps, d: IncomingDeposit): Promise<boolean> {
  if (CREDITED.includes(d.travel_rule_status)) return true;
  if (d.travel_rule_status === 'held' || d.travel_rule_status === 'returned') return false;
  const now = dateOf(deps.clock);
  // Waiting: not more often than every few seconds, however often the chain moves.
  if (
    d.travel_rule_checked_at !== null &&
    now.getTime() - d.travel_rule_checked_at.getTime() < INCOMING_RECHECK_SECONDS * 1000
  )
    return false;
  const answer = await deps.port.incoming({
    network: d.blockchain_key,
    txid: d.txid,
    address: d.address,
    from: d.from_address,
    asset: d.currency_id,
    amount: d.amount,
  });
  const { status, record } = judge(deps, d, answer, now);
  if (status === 'unchecked')
    deps.log.warn(`deposit ${d.id}: the travel-rule service was not reached; credited unchecked`);
  // Changed meanwhile (a reorg, another pass): the next pass looks again.
  if (!(await recordIncomingAnswer(deps.db, d.id, status, record, now))) return false;
  return CREDITED.includes(status);
}

/** The status an answer gives the deposit, and what is kept of it. */
function judge(
  deps: IncomingDeps,
  d: IncomingDeposit,
  answer: IncomingAnswer,
  now: Date,
): { status: IncomingTravelRuleStatus; record: Record<string, unknown> } {
  if (answer.outcome === 'unreachable') return { status: 'unchecked', record: { detail: answer.detail } };
  const providerId = answer.providerId;
  const provider = deps.config.providers.find((p) => p.id === providerId);
  const kept = {
    provider_id: providerId,
    provider_name: provider?.name ?? null,
    payload: answer.outcome === 'record' ? answer.payload : null,
  };
  if (answer.outcome === 'record' && namesOriginator(answer.payload))
    return { status: 'received', record: kept };
  if (answer.outcome === 'none' && providerId === null) return { status: 'not_required', record: kept };
  const waited = now.getTime() - d.created_at.getTime() >= deps.config.incomingWaitMinutes * 60_000;
  return { status: waited ? 'held' : 'awaiting', record: kept };
}
