import nodemailer from 'nodemailer';
import type pg from 'pg';
import { recordOutgoing } from './outbox.ts';
import type { MailPort } from './port.ts';

/** SMTP adapter: delivers through the server in `smtpUrl`, then records the message as sent. */
export function createSmtpMail(smtpUrl: string, from: string, db: pg.Pool): MailPort {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        replyTo: message.replyTo,
      });
      await recordOutgoing(db, 'email', message, new Date());
    },
  };
}
