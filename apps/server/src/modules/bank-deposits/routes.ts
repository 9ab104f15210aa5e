import {
  adminBankTransferResponse,
  adminBankTransfersQuery,
  assignBankTransferSchema,
  BANK_DEPOSIT_ERRORS,
  bankDepositResponse,
  returnBankTransferSchema,
  type StaffPermission,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type CreditNotification, creditTransfersOf } from '../../adapters/bank/port.ts';
import { verifyBankWebhook } from '../../adapters/bank/signing.ts';
import { authUser, requireAuth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import type { Staff } from '../admin/access.ts';
import type { BankDepositRouteDeps } from './deps.ts';
import { listAdminTransfers } from './repository.ts';
import { assignTransfer, depositInstructions, receiveTransfer, returnTransfer } from './service.ts';

/** Where the bank's credit notifications arrive (under the Peatio prefix, as the card issuer's webhooks). */
export const BANK_WEBHOOK_PATH = '/bank/notifications';

/** A notification is small: a few entries. */
const BANK_WEBHOOK_BODY_LIMIT = 256 * 1024;
const WEBHOOK_RATE = { config: { rateLimit: { max: 600, timeWindow: '1 minute' } } };

const text = (max: number) => z.string().min(1).max(max);
const notificationSchema = z.object({
  notification_id: text(100),
  account: z.object({ iban: text(34) }),
  entries: z
    .array(
      z.object({
        acct_svcr_ref: text(100),
        credit_debit: z.enum(['CRDT', 'DBIT']),
        status: z.enum(['BOOK', 'PDNG']),
        amount: z.string().regex(/^(0|[1-9]\d{0,11})(\.\d{1,2})?$/),
        currency: z.string().regex(/^[A-Z]{3}$/),
        booking_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        end_to_end_id: text(35),
        debtor: z.object({ name: text(140), iban: text(34) }),
        remittance: z.object({
          unstructured: z.string().max(140).nullable(),
          creditor_reference: z.string().max(35).nullable(),
        }),
      }),
    )
    .min(1)
    .max(100),
}) satisfies z.ZodType<CreditNotification>;

/** `GET /account/bank_deposit` (Peatio scope): the verified business's SEPA details and reference. */
export async function bankDepositRoutes(app: FastifyInstance, deps: BankDepositRouteDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  app.get(
    '/account/bank_deposit',
    docs('EUR by SEPA transfer: the collection account and my reference (verified business accounts)', {
      response: bankDepositResponse,
      errors: [403],
    }),
    async (request, reply) => {
      reply.header('cache-control', 'no-store, private');
      return depositInstructions(deps.bankDeposits, authUser(request).id);
    },
  );
}

/**
 * The bank's credit notifications (camt.054 in JSON), signed with `X-Bank-Timestamp` and `X-Bank-Signature`
 * (checked before the body is read). Each booked credit is credited or queued once; a repeat answers 200.
 */
export async function bankWebhookRoutes(app: FastifyInstance, deps: BankDepositRouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: BANK_WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    BANK_WEBHOOK_PATH,
    docs(
      'Bank credit notifications (X-Bank-Timestamp, X-Bank-Signature)',
      {
        bodyType: 'raw',
        response: z.object({
          credited: z.number().int(),
          queued: z.number().int(),
          duplicate: z.number().int(),
        }),
        errors: [400, 401],
      },
      WEBHOOK_RATE,
    ),
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!verifyBankWebhook(deps.bankDeposits.webhookSecret, raw, request.headers))
        throw new AppError(401, [BANK_DEPOSIT_ERRORS.webhookUnauthorized]);
      let parsed: CreditNotification;
      try {
        parsed = notificationSchema.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        throw new AppError(400, [BANK_DEPOSIT_ERRORS.webhookInvalid]);
      }
      const counts = { credited: 0, queued: 0, duplicate: 0 };
      for (const transfer of creditTransfersOf(parsed))
        counts[await receiveTransfer(deps.bankDeposits, transfer)]++;
      return counts;
    },
  );
}

const idParam = z.object({ id: z.coerce.number().int().positive() });

/** The console's bank transfer queue (permission `bank_transfers.review`), inside {@link adminRoutes}. */
export function adminBankTransferRoutes(
  app: FastifyInstance,
  deps: BankDepositRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  app.get(
    '/bank_transfers',
    docs('Incoming bank transfers: those no reference matched (default), credited, returned or all', {
      query: adminBankTransfersQuery,
      response: z.array(adminBankTransferResponse),
      paged: true,
    }),
    async (request, reply) => {
      await staff(request, 'bank_transfers.review');
      const q = adminBankTransfersQuery.parse(request.query);
      const { items, total } = await listAdminTransfers(deps.db, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  app.post(
    '/bank_transfers/:id/assign',
    docs('Credit a queued bank transfer to an account (never the operator’s own)', {
      params: idParam,
      body: assignBankTransferSchema,
      response: adminBankTransferResponse,
    }),
    async (request) => {
      const who = await staff(request, 'bank_transfers.review');
      const { uid, reason } = assignBankTransferSchema.parse(request.body ?? {});
      return assignTransfer(deps.bankDeposits, who, idParam.parse(request.params).id, uid, reason);
    },
  );

  app.post(
    '/bank_transfers/:id/return',
    docs('Mark a queued bank transfer for return to its sender', {
      params: idParam,
      body: returnBankTransferSchema,
      response: adminBankTransferResponse,
    }),
    async (request) => {
      const who = await staff(request, 'bank_transfers.review');
      const { reason } = returnBankTransferSchema.parse(request.body ?? {});
      return returnTransfer(deps.bankDeposits, who, idParam.parse(request.params).id, reason);
    },
  );
}
