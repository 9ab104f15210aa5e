import { closureResponse, requestClosureSchema } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authUser } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import { sessionOnly } from '../../http/session-only.ts';
import type { ClosureRouteDeps } from './deps.ts';
import { closureService } from './job.ts';

const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * Account closure (issue 31, part 4): `GET`, `POST` and `DELETE /resource/users/closure`, in the user resource
 * scope (its authentication and CSRF). Session only: an API key is for a program that trades, never for ending
 * the account.
 */
export async function accountClosureRoutes(app: FastifyInstance, deps: ClosureRouteDeps): Promise<void> {
  const service = closureService(deps);

  app.get(
    '/resource/users/closure',
    docs(
      'The account closure under way (or none) and the balances still held',
      { response: closureResponse, security: 'session' },
      sessionOnly(),
    ),
    async (request) => service.status(authUser(request)),
  );

  app.post(
    '/resource/users/closure',
    docs(
      'Ask to close the account, or name addresses for what is left (password, TOTP with 2FA)',
      {
        body: requestClosureSchema,
        response: closureResponse,
        status: 201,
        security: 'session',
        errors: [403, 422],
        description:
          'Needs no open orders (422 `resource.closure.open_orders`), the password (`resource.closure.invalid_password`) ' +
          'and with two-factor on a code (`resource.closure.missing_otp`, `resource.closure.invalid_otp`). Each entry of ' +
          '`addresses` names an activated beneficiary of the user for a currency still held; its whole available balance ' +
          "is withdrawn there as an ordinary withdrawal (fee as usual; the travel rule's record and holds as usual: a " +
          'self-hosted address above the threshold must be proved first, else 422 `account.withdraw.address_unverified`). ' +
          "Another user's, a pending or a foreign-currency " +
          'beneficiary answers 422 `resource.closure.invalid_beneficiary`. When nothing is left and no withdrawal is on ' +
          'its way the account is closed: no login, sessions and API keys ended. Balances with no address wait; after ' +
          '30 days the operator may convert them to fiat.',
      },
      sessionOnly({ config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }),
    ),
    async (request, reply) => {
      const view = await service.request(
        authUser(request),
        requestClosureSchema.parse(request.body ?? {}),
        origin(request),
      );
      return reply.status(201).send(view);
    },
  );

  app.delete(
    '/resource/users/closure',
    docs(
      'Cancel the account closure while nothing has been withdrawn for it',
      {
        response: closureResponse,
        security: 'session',
        errors: [404, 422],
        description:
          '404 `resource.closure.doesnt_exist` without one under way; 422 `resource.closure.not_cancelable` once a ' +
          'withdrawal of the closure is on its way or done.',
      },
      sessionOnly(),
    ),
    async (request) => service.cancel(authUser(request), origin(request)),
  );
}
