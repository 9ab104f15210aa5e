import type { MailSimulator, MailSimulatorOptions } from '@exchange/server/provider-kit';
import { MAIL_SIM_PREFIX, mailSimulatorRoutes } from './routes.ts';
import { createSmtpServer, listenSmtp } from './smtp.ts';
import { loadMailCredentials, mailKey } from './store.ts';

/**
 * The mail simulator: a mail server that takes the exchange's mail over SMTP as a real one does (AUTH, size limit,
 * a bouncing and a deferring domain, MIME parsed), and the developer's mailbox that shows each message's text once.
 * Its state is in PostgreSQL (`mailsim_messages`, texts sealed at rest).
 */

export { MAIL_SIM_PREFIX } from './routes.ts';
export { BOUNCE_DOMAIN, DEFER_DOMAIN, MAX_MESSAGE_BYTES } from './smtp.ts';

/** Builds the simulator over a database: its mailbox routes (for {@link MAIL_SIM_PREFIX}) and its SMTP server. */
export async function createMailSimulator(options: MailSimulatorOptions): Promise<MailSimulator> {
  const credentials = await loadMailCredentials(options.db);
  const key = mailKey(credentials);
  const smtp = createSmtpServer(options.db, key, credentials);
  let listening = false;
  return {
    prefix: MAIL_SIM_PREFIX,
    routes: (app) => mailSimulatorRoutes(app, { db: options.db, credentials, key }),
    credentials,
    async listen(host, port) {
      const taken = await listenSmtp(smtp, host, port);
      listening = true;
      return taken;
    },
    async close() {
      if (!listening) return;
      listening = false;
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
