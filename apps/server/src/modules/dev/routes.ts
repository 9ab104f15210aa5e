import { outboxMessageResponse } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readOutbox } from '../../adapters/mail/outbox.ts';
import { loopbackOnly } from '../../http/loopback.ts';
import { docs } from '../../http/openapi.ts';
import type { DevRouteDeps } from './deps.ts';

const outboxQuery = z.object({
  to: z.string().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/**
 * Developer tools, mounted only when DEV_TOOLS is on and answered only to this machine: the mail and SMS outbox
 * as JSON, newest first, so a person (or a test) can register without a real mailbox or phone. Each message's
 * one-time secret (code, reset link, pin) is in the answer that first shows it and then gone from the database:
 * a later read shows `[redacted]` in its place. Texts sent through the SMS simulator get theirs from its phone
 * inbox, and mail delivered to the mail simulator from its mailbox, which also give each text once.
 */
export async function devRoutes(app: FastifyInstance, deps: DevRouteDeps): Promise<void> {
  app.get(
    '/dev/outbox',
    docs(
      'Development mail and SMS outbox (each secret shown once)',
      { query: outboxQuery, response: z.array(outboxMessageResponse), errors: [403] },
      {
        onRequest: loopbackOnly,
      },
    ),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const query = outboxQuery.parse(request.query);
      // Mail goes out through the sender: what a request queued is delivered before the mailbox is read.
      await deps.flushMail?.();
      const inboxes = [deps.smsInbox, deps.mailInbox].flatMap((inbox) => (inbox ? [inbox] : []));
      return readOutbox(deps.db, deps.keys, query, async (refs) => {
        const texts = new Map<string, string>();
        for (const inbox of inboxes) for (const [ref, text] of await inbox.take(refs)) texts.set(ref, text);
        return texts;
      });
    },
  );
}
