import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createOutboxMail } from './adapters/mail/outbox.ts';
import type { MailPort } from './adapters/mail/port.ts';
import { type MailInbox, simulatorMailbox } from './adapters/mail/simulator-mailbox.ts';
import { awaitFirstAttempts, createQueuedSmtpMail, MailSender } from './adapters/mail/smtp.ts';
import type { MailSimulator } from './adapters/simulators.ts';
import { IN_PROCESS, inProcessFetch, loadSimulator } from './compose-providers.ts';
import type { Config } from './config.ts';
import type { ChangeFeed } from './db/change-feed.ts';
import type { ModuleLogger } from './log.ts';
import type { ServerKeys } from './modules/identity/crypto.ts';

/**
 * Part of the composition root: where mail goes (MAIL_PROVIDER). With `smtp` and with the `simulator` (the
 * default without SMTP_URL), a request only queues its message in `mail_outbox` and the mail sender (a background
 * job) delivers it over SMTP: to SMTP_URL, or to the mail simulator's SMTP server listening on loopback in the
 * process that runs the sender. The exchange's code is then the same with the simulator as with a real server.
 */
export interface MailSetup {
  mail: MailPort;
  /** The SMTP sender; only where the background work runs (the worker role, or the one process). */
  sender: MailSender | undefined;
  /** The mail simulator's mailbox, where the development outbox reads delivered mail (only with DEV_TOOLS). */
  inbox: MailInbox | undefined;
  simulator: MailSimulator | undefined;
  /**
   * Delivers what is queued before the development outbox reads: with this process's sender, or (a mailbox to
   * read but another process's sender) by waiting a few seconds for its first attempts.
   */
  flush: (() => Promise<void>) | undefined;
  /** Stops the sender, then the simulator's SMTP server. */
  stop(): Promise<void>;
}

export async function mailFor(
  config: Config,
  db: pg.Pool,
  keys: ServerKeys,
  /** The server keys where the developer tools read the outbox (DEV_TOOLS), else undefined. */
  devOutboxKeys: ServerKeys | undefined,
  selfUrl: () => string | null,
  self: () => FastifyInstance | undefined,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
): Promise<MailSetup> {
  const senderTo = (smtpUrl: string) =>
    new MailSender({ db, keys, smtpUrl, from: config.mailFrom, feed, log });
  if (config.mailProvider === 'outbox')
    return setup(createOutboxMail(db, devOutboxKeys), undefined, undefined, undefined);
  if (config.mailProvider === 'smtp' && config.smtpUrl)
    return setup(createQueuedSmtpMail(db, keys), senderTo(config.smtpUrl), undefined, undefined);
  const { createMailSimulator } = await loadSimulator.mail();
  const simulator = await createMailSimulator({ db });
  const { user, password } = simulator.credentials;
  // The sender is its only client: the mail server listens where the sender runs, on loopback only.
  const port = config.roles.has('worker') ? await simulator.listen('127.0.0.1', 0) : undefined;
  const sender =
    port === undefined
      ? undefined
      : senderTo(`smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`);
  const inbox = devOutboxKeys
    ? simulatorMailbox({
        baseUrl: () => `${selfUrl() ?? IN_PROCESS}${simulator.prefix}`,
        user,
        password,
        fetch: inProcessFetch(self),
      })
    : undefined;
  // A split deployment's api process has no sender: the worker's delivers what this one queued.
  const awaitWorker = sender === undefined && inbox ? () => awaitFirstAttempts(db) : undefined;
  return setup(createQueuedSmtpMail(db, keys), sender, inbox, simulator, awaitWorker);
}

/** The mail port a caller gave (a test's): no sender, no simulator. */
export function givenMail(mail: MailPort): MailSetup {
  return setup(mail, undefined, undefined, undefined);
}

function setup(
  mail: MailPort,
  sender: MailSender | undefined,
  inbox: MailInbox | undefined,
  simulator: MailSimulator | undefined,
  awaitWorker?: () => Promise<void>,
): MailSetup {
  return {
    mail,
    sender,
    inbox,
    simulator,
    flush: sender ? () => sender.flush() : awaitWorker,
    async stop() {
      await sender?.stop();
      await simulator?.close();
    },
  };
}
