import nodemailer from 'nodemailer';
import type pg from 'pg';
import { recordOutgoing } from './outbox.ts';
import { fillSecret, type MailPort } from './port.ts';

/**
 * SMTP adapter: delivers through the server in `smtpUrl` with the secret filled in, then records that the
 * message was sent (to whom, which template, when) with its secret left out: a real mailbox received it, so
 * nothing here keeps it.
 */
export function createSmtpMail(smtpUrl: string, from: string, db: pg.Pool): MailPort {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: fillSecret(message.subject, message.secret),
        text: fillSecret(message.text, message.secret),
        replyTo: message.replyTo,
      });
      await recordOutgoing(db, 'email', message, { sentAt: new Date() });
    },
  };
}
