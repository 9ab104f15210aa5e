import { checkBasicAuth, type MailSimulatorCredentials } from '@exchange/server/provider-kit';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { takeMailbox } from './store.ts';

/** Where the one process mounts the mail simulator's mailbox; a standalone simulator serves the same path. */
export const MAIL_SIM_PREFIX = '/mail-sim';

const mailboxQuery = z.object({
  to: z.string().max(254).optional(),
  /** Message-IDs with their angle brackets, comma-separated. */
  message_id: z
    .string()
    .regex(/^<[^<>,\s]{1,250}>(,<[^<>,\s]{1,250}>){0,499}$/)
    .transform((v) => v.split(','))
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export interface MailSimulatorDeps {
  db: pg.Pool;
  credentials: MailSimulatorCredentials;
  key: Buffer;
}

/**
 * The developer's mailbox over HTTP (`GET /mailbox?to=…` or `?message_id=<…>,<…>`, HTTP Basic with the mail
 * server's credentials): the newest messages, each text shown on one read, then gone. A real mail server has no
 * such thing; it stands for the mailbox a developer would open.
 */
export async function mailSimulatorRoutes(app: FastifyInstance, deps: MailSimulatorDeps): Promise<void> {
  const { credentials, key, db } = deps;
  app.get('/mailbox', async (request, reply) => {
    if (!checkBasicAuth(request.headers.authorization, credentials.user, credentials.password))
      return reply
        .status(401)
        .header('www-authenticate', 'Basic realm="mail-sim"')
        .send({ error: 'unauthorized' });
    const query = mailboxQuery.safeParse(request.query);
    if (!query.success)
      return reply
        .status(400)
        .send({ error: 'read the mailbox by an address (to) or Message-IDs (message_id)' });
    reply.header('cache-control', 'no-store');
    const { to, message_id, limit } = query.data;
    const messages = await takeMailbox(db, key, { to, messageIds: message_id, limit });
    return messages.map((m) => ({
      message_id: m.message_id,
      from: m.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      received_at: m.received_at.toISOString(),
    }));
  });
}
