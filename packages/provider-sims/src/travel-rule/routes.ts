import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import {
  addressOwner,
  incomingRecord,
  knownAnswer,
  providerBehaviour,
  recordMessage,
  type SimAnswer,
} from './store.ts';

/** Where the simulator of the counterparty providers answers, on the app's own server or on its own. */
export const TRAVEL_RULE_SIM_PREFIX = '/travel-rule-sim';

export interface TravelRuleSimulatorDeps {
  db: pg.Pool;
  /** How long a provider set to `timeout` keeps the request before answering (longer than the client waits). */
  holdMs: number;
}

const nameList = z.array(z.unknown());
/** Only what the simulator checks; the rest of the IVMS 101 message is stored as it came. */
const transferSchema = z.object({
  reference: z.string().min(1).max(100),
  providerId: z.string().min(1).max(64),
  payload: z.object({
    originator: z.object({
      originatorPersons: z.array(
        z.object({ naturalPerson: z.object({ name: z.object({ nameIdentifier: nameList }) }) }).partial(),
      ),
    }),
    beneficiary: z.object({
      beneficiaryPersons: z.array(
        z.object({ naturalPerson: z.object({ name: z.object({ nameIdentifier: nameList }) }) }).partial(),
      ),
    }),
  }),
});

/** A deposit the app asks about (only the keys are read). */
const incomingSchema = z.object({
  network: z.string().min(1).max(64),
  txid: z.string().min(1).max(200),
  address: z.string().min(1).max(200),
  from: z.string().min(1).max(200).nullable(),
});

/**
 * A counterparty provider as the travel-rule protocol reaches it: it refuses a message without the originator's or
 * the beneficiary's name (art. 14 of Regulation (EU) 2023/1113), and otherwise answers as its row in
 * `travel_rule_sim_providers` says (accept by default; `refuse`; `timeout`: no answer in time). Every message and
 * its answer is kept in `travel_rule_sim_messages`; the same reference is answered as the first time.
 * For a deposit (`POST /incoming`), the network's side: the originator record a provider delivered for it
 * (`travel_rule_sim_incoming`, by network, txid and our address), else whose the sender's address is
 * (`travel_rule_sim_addresses`; none: not known as a provider's).
 */
export async function travelRuleSimulatorRoutes(
  app: FastifyInstance,
  deps: TravelRuleSimulatorDeps,
): Promise<void> {
  // It is reachable by anyone where it runs: a budget per address keeps it from filling its table (the server it
  // is mounted in, or the standalone runner, registers the rate limiter that reads this).
  const limited = { config: { rateLimit: { max: 120, timeWindow: '1 minute' } } };
  app.post('/transfers', limited, async (request, reply) => {
    const parsed = transferSchema.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ status: 'error', reason: 'malformed' });
    const { reference, providerId, payload } = parsed.data;
    const known = await knownAnswer(deps.db, reference);
    if (known && known.answer !== 'timeout')
      return { status: known.answer, reference: `SIM-${reference}`, reason: known.reason ?? undefined };
    const named = (persons: { naturalPerson?: { name: { nameIdentifier: unknown[] } } }[]) =>
      persons.some((p) => (p.naturalPerson?.name.nameIdentifier.length ?? 0) > 0);
    const behaviour = await providerBehaviour(deps.db, providerId);
    let answer: SimAnswer = 'accepted';
    let reason: string | null = null;
    if (!named(payload.originator.originatorPersons)) [answer, reason] = ['refused', 'missing_originator'];
    else if (!named(payload.beneficiary.beneficiaryPersons))
      [answer, reason] = ['refused', 'missing_beneficiary'];
    else if (behaviour === 'refuse') [answer, reason] = ['refused', 'policy'];
    else if (behaviour === 'timeout') answer = 'timeout';
    await recordMessage(deps.db, { reference, providerId, body: request.body, answer, reason });
    if (answer === 'timeout') {
      // A provider that never answers: the connection is dropped once the client has surely given up, so no
      // half-closed socket outlives the request (it would hold the server's close).
      reply.hijack();
      await sleep(deps.holdMs);
      request.raw.socket.destroy();
      return;
    }
    return answer === 'accepted'
      ? { status: 'accepted', reference: `SIM-${reference}` }
      : { status: 'refused', reason };
  });

  app.post('/incoming', limited, async (request, reply) => {
    const parsed = incomingSchema.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ status: 'error', reason: 'malformed' });
    const { network, txid, address, from } = parsed.data;
    const record = await incomingRecord(deps.db, { network, txid, address });
    if (record) return { status: 'record', provider_id: record.provider_id, payload: record.payload };
    const owner = from ? await addressOwner(deps.db, network, from) : null;
    return { status: 'none', provider_id: owner };
  });
}
