import {
  executePayoutSchema,
  PAYOUT_ERRORS,
  PAYOUT_LIMITS,
  payoutFileDetailResponse,
  payoutFileResponse,
  payoutIdParams,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser, requireAuth } from '../../http/auth.ts';
import { invalid } from '../../http/errors.ts';
import { readMultipart, streamMultipart } from '../../http/multipart.ts';
import { docs } from '../../http/openapi.ts';
import { sessionOnly } from '../../http/session-only.ts';
import type { PayoutRouteDeps } from './deps.ts';
import { Payouts } from './service.ts';

/** Per account, so that businesses behind one address do not share a budget. */
const perAccount = (max: number, timeWindow: string) => ({
  config: {
    rateLimit: {
      max,
      timeWindow,
      keyGenerator: (r: FastifyRequest) => `payouts:${r.auth?.user.id ?? r.ip}`,
    },
  },
});

/**
 * Mass payouts (`/api/v2/peatio/account/payouts`, issue 31, part 3), for a verified business's browser session
 * only: a leaked API key must not be able to pay a thousand addresses. Every route answers 403
 * `account.payout.business_required` to anyone else, and 404 for a file that is not the caller's.
 */
export async function payoutRoutes(app: FastifyInstance, deps: PayoutRouteDeps): Promise<void> {
  const payouts = new Payouts({
    ...deps.wallet.withdrawDeps(),
    log: deps.logger.child({ module: 'payouts' }),
  });
  // A file being executed finishes the rows it is placing, and claims no more, before the app closes.
  app.addHook('onClose', () => payouts.stop());
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  // The file and its form, read after the session check; a larger Content-Length is refused before reading.
  streamMultipart(app, PAYOUT_LIMITS.maxBytes + 16 * 1024);
  const origin = (r: FastifyRequest) => ({ ip: r.ip, userAgent: r.headers['user-agent'] ?? null });

  app.get(
    '/account/payouts',
    docs(
      "The business's payout files, newest first (at most 50)",
      { response: z.array(payoutFileResponse), errors: [403] },
      sessionOnly(),
    ),
    async (request) => payouts.list(authUser(request)),
  );
  app.post(
    '/account/payouts',
    docs(
      'Upload a payout file (CSV in the multipart field `file`): validated as a whole, stored when valid',
      {
        bodyType: 'multipart',
        response: payoutFileDetailResponse,
        status: 201,
        errors: [403, 409, 413],
        description:
          'Columns `currency,network,recipient,amount,reference` (a header line first), at most 1,000 rows and ' +
          '512 KiB. `recipient` is an address of the network or the email of a platform account (an internal ' +
          'transfer, no fee); `amount` is what the recipient receives, the network fee comes on top. A refusal ' +
          '(422) lists `rows` (line and codes) and `shortfall` (per currency). The same bytes again answer 409 ' +
          '`account.payout.duplicate_file` with `file_id` while that file exists.',
      },
      sessionOnly(perAccount(30, '1 hour')),
    ),
    async (request, reply) => {
      const form = await readMultipart(request, reply, { maxFileBytes: PAYOUT_LIMITS.maxBytes, maxFiles: 1 });
      if (!form) throw invalid(PAYOUT_ERRORS.fileRequired);
      if (form.fileTooLarge) throw invalid(PAYOUT_ERRORS.fileTooLarge);
      const file = form.files.find((f) => f.field === 'file');
      return reply.status(201).send(await payouts.upload(authUser(request), file));
    },
  );
  app.get(
    '/account/payouts/:id',
    docs(
      'One payout file with every row and its state',
      { params: payoutIdParams, response: payoutFileDetailResponse, errors: [403, 404] },
      sessionOnly(),
    ),
    async (request) =>
      payouts.get(authUser(request), payoutIdParams.parse(request.params).id, origin(request)),
  );
  app.post(
    '/account/payouts/:id/execute',
    docs(
      'Execute a validated payout file with one authenticator code; the rows are placed in the background',
      {
        params: payoutIdParams,
        body: executePayoutSchema,
        response: payoutFileResponse,
        status: 202,
        errors: [403, 404],
      },
      sessionOnly(perAccount(10, '1 minute')),
    ),
    async (request, reply) => {
      const { id } = payoutIdParams.parse(request.params);
      const { otp } = executePayoutSchema.parse(request.body ?? {});
      return reply.status(202).send(await payouts.execute(authUser(request), id, otp, origin(request)));
    },
  );
  app.delete(
    '/account/payouts/:id',
    docs(
      'Discard a payout file that was never executed (its bytes may then be uploaded again)',
      { params: payoutIdParams, status: 204, errors: [403, 404] },
      sessionOnly(perAccount(30, '1 minute')),
    ),
    async (request, reply) => {
      await payouts.discard(authUser(request), payoutIdParams.parse(request.params).id);
      return reply.status(204).send();
    },
  );
}
