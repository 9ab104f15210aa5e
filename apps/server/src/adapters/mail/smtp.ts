import nodemailer from 'nodemailer';
import type pg from 'pg';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { DueWorker } from '../../jobs/due-worker.ts';
import { decrypt, type ServerKeys } from '../../modules/identity/crypto.ts';
import { recordOutgoing } from './outbox.ts';
import {
  claimNextDue,
  firstAttemptPending,
  markDead,
  markSent,
  msUntilNextDue,
  type QueuedMail,
  recordAttemptError,
} from './outbox-repository.ts';
import { fillSecret, type MailPort } from './port.ts';

/** How many times the sender tries a message (2 s, 4 s … 256 s apart: about 8.5 minutes) before giving up on it. */
export const MAIL_MAX_ATTEMPTS = 8;

/** How long a flush waits for another sender's attempt: FLUSH_WAITS looks, FLUSH_WAIT_MS apart. */
const FLUSH_WAITS = 150;
const FLUSH_WAIT_MS = 20;

/**
 * Waits until every queued message has had its first attempt, a few seconds at most: for a process whose mail a
 * sender elsewhere delivers (the api role of a split deployment, or a second app on the same database), before
 * the development outbox reads the mail simulator's mailbox.
 */
export async function awaitFirstAttempts(db: pg.Pool): Promise<void> {
  for (let i = 0; i < FLUSH_WAITS && (await firstAttemptPending(db)); i++)
    await new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS));
}

/**
 * The SMTP client's time limits. nodemailer's own allow two minutes to connect and ten for a silent socket; a
 * message that cannot go in this time is tried again later, not waited for.
 */
const SMTP_TIME_LIMITS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Mail through SMTP, off the request path: `send` only queues the message in `mail_outbox` (its secret sealed with
 * the server key), which a request does in one insert whatever the mail server is doing; the {@link MailSender}
 * delivers it.
 */
export function createQueuedSmtpMail(db: pg.Pool, keys: ServerKeys): MailPort {
  return { send: (message) => recordOutgoing(db, 'email', message, { keys, queued: true }) };
}

export interface MailSenderOptions {
  db: pg.Pool;
  keys: ServerKeys;
  smtpUrl: string;
  from: string;
  /** Announces queued messages (`o:mail_outbox`, migration 0032), whichever process queued them. */
  feed?: ChangeFeed;
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The background sender of queued mail (a background job: one process at a time): delivers each queued message
 * over pooled SMTP connections with short time limits, in order, retrying with back-off. Delivered, a message
 * keeps its record (to whom, which template, when) and loses its secret; after {@link MAIL_MAX_ATTEMPTS} failed
 * tries it becomes a dead letter (`dead_at`, the last error kept, the secret dropped: every code it could carry
 * has expired by then).
 */
export class MailSender {
  private readonly worker: DueWorker;
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(private readonly options: MailSenderOptions) {
    // Pooled: connections are kept and reused, not opened for every message. What the URL sets wins.
    this.transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true, ...SMTP_TIME_LIMITS });
    const { db } = options;
    this.worker = new DueWorker({
      db,
      name: 'mail sender',
      pass: () => this.pass(),
      nextDueMs: () => msUntilNextDue(db),
      feed: options.feed,
      announcement: 'o:mail_outbox',
      pollMs: options.pollMs,
      log: options.log,
    });
  }

  /** Starts sending: what is queued now, then whatever is queued or falls due. */
  start(): void {
    this.worker.start();
  }

  /** Stops sending (after the message under way) and closes the SMTP connections. */
  async stop(): Promise<void> {
    await this.worker.stop();
    this.transport.close();
  }

  /** Sends what is due now (or right after the pass under way). */
  kick(): void {
    this.worker.kick();
  }

  /** Waits until no pass is running (tests). */
  idle(): Promise<void> {
    return this.worker.idle();
  }

  /**
   * Delivers everything queued so far before it resolves (the development outbox reads the mail simulator's
   * mailbox after this): a pass now, or right after the one under way, and any it leads to. Another process's
   * sender may have claimed a message first (two apps on one database, as in the tests): its first attempt's
   * outcome is waited for, a few seconds at most.
   */
  async flush(): Promise<void> {
    this.worker.kick();
    await this.worker.idle();
    await awaitFirstAttempts(this.options.db);
  }

  private async pass(): Promise<void> {
    const { db } = this.options;
    for (let i = 0; i < 100 && !this.worker.stopping; i++) {
      const claimed = await claimNextDue(db);
      if (!claimed) return;
      const outcome = await this.deliver(claimed);
      if ('messageId' in outcome) {
        await markSent(db, claimed.id, outcome.messageId);
      } else if (outcome.permanent || claimed.attempts >= MAIL_MAX_ATTEMPTS) {
        await markDead(db, claimed.id, outcome.error);
        this.options.log?.warn(
          { mail: claimed.id, attempts: claimed.attempts, err: outcome.error },
          'mail sender: gave up on a message (dead letter)',
        );
      } else {
        await recordAttemptError(db, claimed.id, outcome.error);
      }
    }
  }

  /**
   * Delivers one message with its secret filled in: the Message-ID the server took it under (kept as the
   * message's reference), or the error's text: permanent when the server refused the recipient or the message
   * itself with a 5xx reply (RFC 5321 4.2.1: it would be refused again, so it is not tried again). A refused
   * login (535) or a login asked for (530) is the sender's configuration, not the message's: tried again.
   */
  private async deliver(
    mail: QueuedMail,
  ): Promise<{ messageId: string | null } | { error: string; permanent: boolean }> {
    const secret = mail.secret_enc ? decrypt(this.options.keys, mail.secret_enc) : null;
    try {
      const info = await this.transport.sendMail({
        from: this.options.from,
        to: mail.recipient,
        subject: fillSecret(mail.subject, secret),
        text: fillSecret(mail.body, secret),
        replyTo: mail.reply_to ?? undefined,
      });
      return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
    } catch (err) {
      const { responseCode: reply, code } = err as { responseCode?: unknown; code?: unknown };
      const permanent =
        (code === 'EENVELOPE' || code === 'EMESSAGE') &&
        typeof reply === 'number' &&
        reply >= 500 &&
        reply < 600 &&
        reply !== 530;
      return { error: (err as Error).message.slice(0, 500), permanent };
    }
  }
}
