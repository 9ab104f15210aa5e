/**
 * What a message is, kept with the record of every message sent (to whom, which template, when), so support
 * can answer "did you send me…?" without anyone keeping what the message delivered.
 */
export type MessageTemplate =
  | `code.${string}`
  | 'password_reset'
  /** BASEAPP_COMPAT: the account confirmation link. */
  | 'account_confirmation'
  /** BASEAPP_COMPAT: the link that confirms removing a saved withdrawal address. */
  | 'beneficiary_removal'
  | 'beneficiary_pin'
  | 'security_notice'
  /** A sign-in from a device the user's earlier logins never used (issue 31). */
  | 'security_new_device'
  /** A sign-in from a country the user's earlier logins never came from (GEOIP_COUNTRY_DB, issue 31). */
  | 'security_new_country'
  /** Both at once: one mail saying both. */
  | 'security_new_device_country'
  | 'card_approved'
  | 'contact';

/**
 * An outgoing message on the mail or SMS channel. A one-time secret it delivers (a code, a reset token, a pin)
 * is not written into `subject` or `text`: they hold {@link SECRET_SLOT} where it goes (compose them with
 * {@link withSecret}), and the secret travels beside them, filled in only for delivery.
 */
export interface OutgoingMessage {
  to: string;
  template: MessageTemplate;
  subject: string;
  text: string;
  /** The one-time secret the slot stands for; delivered, never kept readable. */
  secret?: string;
  replyTo?: string;
}

/** Sends email. Implementations: the outbox table (default) and SMTP. */
export interface MailPort {
  send(message: OutgoingMessage): Promise<void>;
}

/** Where a message's secret goes in its subject or text. */
export const SECRET_SLOT = '{{secret}}';

/** What a kept message shows where its secret was, once the secret is gone. */
export const REDACTED = '[redacted]';

/** The marker {@link withSecret} replaces with {@link SECRET_SLOT}. */
export const SECRET: unique symbol = Symbol('secret');

/**
 * Tag for message texts: `withSecret\`Your code is ${SECRET}. ${phrase}\`` puts the slot where `SECRET` stands
 * and writes every other value as it is, except that a slot inside one (a user's own text, such as a name or an
 * anti-phishing phrase) is broken up, so nothing a user typed can make a message show its secret elsewhere.
 */
export function withSecret(strings: TemplateStringsArray, ...values: (string | number | typeof SECRET)[]) {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += value === SECRET ? SECRET_SLOT : String(value).replaceAll('{{', '{ {');
    text += strings[i + 1] ?? '';
  });
  return text;
}

/** The text with its slot filled: the secret for delivery, {@link REDACTED} for a copy kept after it is gone. */
export function fillSecret(text: string, secret: string | null | undefined): string {
  return text.replaceAll(SECRET_SLOT, secret ?? REDACTED);
}
