import { type CollectionAccount, checkBasicAuth, validIban } from '@exchange/server/provider-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type pg from 'pg';
import { type BankSimulatorCredentials, bookIncomingTransfer } from './store.ts';

/** Where the bank simulator is mounted in the app. */
export const BANK_SIMULATOR_PREFIX = '/bank-sim/v1';

export interface BankSimulatorDeps {
  db: pg.Pool;
  credentials: BankSimulatorCredentials;
  /** The one account the simulated bank keeps: the exchange's collection account. */
  collection: CollectionAccount;
  /** Sends the queued notifications now rather than at the next poll. */
  kick(): void;
}

const fail = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).send({ error: { status, message } });

/** Euros with at most two decimals, up to a billion: whole cents, never a float. */
const EUR = /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/;
/** The SEPA character set for names and remittance information (the Latin subset every bank accepts). */
const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

/**
 * The simulated bank's API (Basic authentication with its own credentials). Its developer endpoint stands for
 * the outside world: another bank's customer sending a SEPA credit transfer to the collection account. The
 * transfer is booked and the exchange is notified by a signed webhook.
 */
export async function bankSimulatorRoutes(app: FastifyInstance, deps: BankSimulatorDeps): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    const { apiUsername, apiPassword } = deps.credentials;
    if (!checkBasicAuth(request.headers.authorization, apiUsername, apiPassword))
      return fail(reply, 401, 'Unauthorized');
  });

  // `Idempotency-Key` (required): the same key books nothing new and answers with the first entry.
  app.post('/incoming-transfers', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    const input = (request.body ?? {}) as Record<string, unknown>;
    const text = (v: unknown, max: number) =>
      typeof v === 'string' && v.trim().length > 0 && v.length <= max && SEPA_TEXT.test(v) ? v.trim() : null;
    if (typeof key !== 'string' || !/^[A-Za-z0-9_.:-]{8,100}$/.test(key))
      return fail(reply, 400, 'Idempotency-Key header (8 to 100 characters) is required');
    const amount = typeof input.amount === 'string' && EUR.test(input.amount) ? input.amount : null;
    const debtorName = text(input.debtor_name, 70);
    const debtorIban = typeof input.debtor_iban === 'string' ? input.debtor_iban.replace(/\s+/g, '') : '';
    const creditorIban =
      typeof input.creditor_iban === 'string'
        ? input.creditor_iban.replace(/\s+/g, '').toUpperCase()
        : deps.collection.iban;
    if (!amount || toCents(amount) <= 0n || !debtorName || !validIban(debtorIban))
      return fail(reply, 400, 'amount (EUR, two decimals), debtor_name and a valid debtor_iban are required');
    if (input.currency !== undefined && input.currency !== 'EUR')
      return fail(reply, 400, 'SEPA credit transfers are in EUR');
    if (creditorIban !== deps.collection.iban.replace(/\s+/g, '').toUpperCase())
      return fail(reply, 404, 'Unknown creditor account');
    const remittance = input.remittance_information == null ? null : text(input.remittance_information, 140);
    const creditorReference = input.creditor_reference == null ? null : text(input.creditor_reference, 35);
    const endToEndId = input.end_to_end_id == null ? null : text(input.end_to_end_id, 35);
    if (
      (input.remittance_information != null && !remittance) ||
      (input.creditor_reference != null && !creditorReference) ||
      (input.end_to_end_id != null && !endToEndId)
    )
      return fail(
        reply,
        400,
        'remittance_information (140), creditor_reference and end_to_end_id (35) are SEPA text',
      );
    const { entry, created } = await bookIncomingTransfer(deps.db, {
      idempotencyKey: key,
      creditorIban,
      cents: toCents(amount),
      currency: 'EUR',
      debtorName,
      debtorIban: debtorIban.toUpperCase(),
      remittance,
      creditorReference,
      endToEndId,
    });
    if (created) deps.kick();
    return reply.status(created ? 201 : 200).send(entry);
  });
}

function toCents(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}
