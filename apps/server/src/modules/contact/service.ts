import type { ContactInput, ContactUserType } from '@exchange/shared';
import type pg from 'pg';
import { type MailPort, withSecret } from '../../adapters/mail/port.ts';
import { insertInquiry } from './repository.ts';

/** Who is asking, as established by the server (never taken from the request body). */
export interface InquiryContext {
  userId: string | null;
  ip: string;
  userAgent: string | null;
}

/**
 * Stores a contact message and forwards it to the support mailbox through the mail port.
 * `user_type` is derived from the session: "Authorize User" when logged in, else "Non Authorize User".
 */
export async function submitInquiry(
  deps: { db: pg.Pool; mail: MailPort; supportEmail: string },
  input: ContactInput,
  ctx: InquiryContext,
): Promise<{ id: string }> {
  const userType: ContactUserType = ctx.userId ? 'Authorize User' : 'Non Authorize User';
  const email = input.email.trim();
  const id = await insertInquiry(deps.db, {
    email,
    subject: input.subject.trim(),
    name: input.name.trim(),
    message: input.message,
    userType,
    userId: ctx.userId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  await deps.mail.send({
    to: deps.supportEmail,
    replyTo: email,
    template: 'contact',
    // The visitor's own words, with nothing they type able to stand for a secret.
    subject: withSecret`[Contact #${id}] ${input.subject.trim()}`,
    text: withSecret`From: ${input.name.trim()} <${email}> (${userType})\n\n${input.message}`,
  });
  return { id };
}
