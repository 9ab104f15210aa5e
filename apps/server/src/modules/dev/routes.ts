import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { loopbackOnly } from '../../http/loopback.ts';
import { docs } from '../../http/openapi.ts';

const outboxQuery = z.object({
  to: z.string().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/**
 * Developer tools, mounted only when DEV_TOOLS is on and answered only to this machine: the mail and SMS outbox
 * as JSON, newest first, so a person (or a test) can register without a real mailbox or phone.
 */
export async function devRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(
    '/dev/outbox',
    docs('Development mail and SMS outbox', { query: outboxQuery }, { onRequest: loopbackOnly }),
    async (request) => {
      const { to, limit } = outboxQuery.parse(request.query);
      const rows = await deps.db.query(
        `select channel, recipient as "to", subject, body, created_at from mail_outbox
       where $1::text is null or lower(recipient) = lower($1) order by id desc limit $2`,
        [to ?? null, limit],
      );
      return rows.rows;
    },
  );
}
