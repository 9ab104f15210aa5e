import { ERRORS } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { authUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { refuseForeignPages } from '../../http/same-origin.ts';
import { sessionOnly } from '../../http/session-only.ts';
import type { DataExportRouteDeps } from './deps.ts';
import { DataExport } from './service.ts';

/**
 * `GET /resource/users/export` (issue 31, part 5), registered in the user resource scope (its authentication):
 * a ZIP of the user's data, once a day.
 *
 * Session only: an API key is refused (403 `authz.session_required`). A key is for a program that trades; a copy
 * of the whole account (identity, phones, addresses, history) is for its owner, and a leaked key must not hand
 * it over. A GET, yet it changes state (the daily allowance, the security log), so a page of another site may
 * not start it in the visitor's browser either (403 `authz.origin_not_allowed`): a top-level link from elsewhere
 * would carry the SameSite=Lax cookie and spend the user's export of the day.
 */
export async function dataExportRoutes(app: FastifyInstance, deps: DataExportRouteDeps): Promise<void> {
  const service = new DataExport({
    db: deps.db,
    units: deps.core.units,
    confirmations: deps.wallet.confirmations,
    latestHeight: deps.wallet.latestHeight,
    statement: deps.cards.statement,
    log: deps.logger.child({ module: 'data-export' }),
    mailRetentionDays: deps.config.mailRetentionDays,
    clock: deps.clock,
    settled: () => deps.core.sequencer.settled(),
  });

  app.get(
    '/resource/users/export',
    docs(
      "A copy of the user's data: a ZIP of JSON and CSV files, once a day",
      {
        content: 'zip',
        security: 'session',
        errors: [403],
        description:
          'Profile, security log, balances, orders, trades, deposits, withdrawals, adjustments, swaps, saved ' +
          'addresses, API keys (never their secrets) and card statements, each as CSV and JSON, with a README. ' +
          'Streamed as it is written. One a day: another within 24 hours answers 429 ' +
          '`resource.user.export_limit` with `next_at` and `Retry-After`.',
      },
      sessionOnly({
        onRequest: refuseForeignPages(deps.config.publicUrl),
        // A HEAD would run the export and spend the day's allowance for nothing.
        exposeHeadRoute: false,
        config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      }),
    ),
    async (request, reply) => {
      const started = await service.start(authUser(request), {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      if ('nextAt' in started) {
        const seconds = Math.max(1, Math.ceil((started.nextAt.getTime() - deps.clock.now()) / 1000));
        reply.header('retry-after', String(seconds));
        throw new AppError(429, [ERRORS.dataExportLimit], { next_at: started.nextAt.toISOString() });
      }
      return reply
        .header('cache-control', 'no-store, private')
        .header('content-disposition', `attachment; filename="${started.filename}"`)
        .type('application/zip')
        .send(started.stream);
    },
  );
}
