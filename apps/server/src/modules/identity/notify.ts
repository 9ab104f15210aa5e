import { ERRORS } from '@exchange/shared';
import { type MailPort, SECRET, withSecret } from '../../adapters/mail/port.ts';
import { type SmsPort, SmsRejected, SmsUnavailable } from '../../adapters/sms/port.ts';
import { AppError } from '../../http/errors.ts';
import { type CodeDeps, type CodePurpose, withdrawCode } from './codes.ts';

/** The ports identity uses to reach a user. */
export interface Messengers {
  mail: MailPort;
  sms: SmsPort;
  /** Where a notice that could not be queued is reported (the process's logger). */
  logger?: { warn(message: string): void };
}

const PURPOSE_TEXT: Record<string, string> = {
  register: 'to verify your account',
  login: 'to finish logging in',
  phone_change: 'to confirm your new phone number',
  email_confirm: 'to confirm your email',
  sensitive_action: 'to confirm a sensitive action on your account',
};

/** Email footer with the user's anti-phishing phrase, so genuine mail can be told from fakes. */
export function phishingLine(phrase: string | null | undefined): string {
  return phrase ? withSecret`\n\nYour anti-phishing phrase: ${phrase}` : '';
}

/** Sends a one-time code by email; the code is the message's secret (delivered, never kept readable). */
export function mailCode(m: Messengers, to: string, purpose: string, code: string, phrase?: string | null) {
  return m.mail.send({
    to,
    template: `code.${purpose}`,
    subject: withSecret`Your verification code: ${SECRET}`,
    text: withSecret`Your code ${PURPOSE_TEXT[purpose] ?? ''} is ${SECRET}. It expires in 10 minutes. Never share it with anyone.${phishingLine(phrase)}`,
    secret: code,
  });
}

/**
 * Sends a one-time code by SMS; the code is the message's secret. A text the provider did not take withdraws its
 * code (see {@link withdrawCode}, so the user may ask again at once); when the provider could not take it (429, 5xx,
 * no answer, or a refusal that is not about the number, e.g. of the account's credentials) the failure is logged
 * and answered 503 `resource.phone.sms_unavailable`. A refusal of the number itself is thrown as it is, for the
 * caller to answer ({@link SmsRejected} with `recipient`).
 */
export async function smsCode(m: Messengers & CodeDeps, to: string, purpose: CodePurpose, code: string) {
  try {
    await m.sms.send({
      to,
      template: `code.${purpose}`,
      text: withSecret`Exchange code ${PURPOSE_TEXT[purpose] ?? ''}: ${SECRET}. Valid 10 minutes.`,
      secret: code,
    });
  } catch (err) {
    // Only the provider's own failures say the text was not sent (a failure to keep its record comes after).
    if (!(err instanceof SmsUnavailable || err instanceof SmsRejected)) throw err;
    await withdrawCode(m, { purpose, channel: 'sms', destination: to }, code);
    if (err instanceof SmsRejected && err.recipient) throw err;
    (m.logger ?? console).warn(`SMS code (${purpose}) not sent: ${String(err)}`);
    throw new AppError(503, [ERRORS.smsUnavailable]);
  }
}

/**
 * Tells the user a security setting changed, so an unexpected change is noticed. It follows a change already
 * committed, so it never fails the request: a notice that cannot be queued is logged instead.
 */
export async function mailSecurityNotice(
  m: Messengers,
  to: string,
  what: string,
  phrase?: string | null,
): Promise<void> {
  try {
    await m.mail.send({
      to,
      template: 'security_notice',
      subject: withSecret`Security notice: ${what}`,
      text: withSecret`${what} on your account just now. If this was not you, reset your password and contact support immediately.${phishingLine(phrase)}`,
    });
  } catch (err) {
    (m.logger ?? console).warn(`security notice "${what}" not queued: ${String(err)}`);
  }
}

/** Where a new sign-in came from, as the new-device and new-country notice tells it. */
export interface SignInPlace {
  browser: string;
  os: string;
  ip: string;
  /** ISO 3166-1 alpha-2 code of the address's country (GEOIP_COUNTRY_DB), null when not known. */
  country: string | null;
  at: Date;
}

/** What was new about a sign-in; at least one of them. */
export interface SignInNews {
  device: boolean;
  country: boolean;
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** "Germany (DE)", or just the code when the runtime has no name for it. */
export function countryName(code: string): string {
  let name: string | undefined;
  try {
    name = REGION_NAMES.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}

const NEWS_TEMPLATE = {
  device: 'security_new_device',
  country: 'security_new_country',
  both: 'security_new_device_country',
} as const;

const NEWS_SUBJECT = {
  device: 'Security notice: new sign-in to your account',
  country: 'Security notice: sign-in to your account from a new country',
  both: 'Security notice: sign-in to your account from a new device and a new country',
} as const;

const NEWS_TEXT = {
  device: 'from a new device',
  country: 'from a country it was never used from before',
  both: 'from a new device and from a country it was never used from before',
} as const;

/**
 * Tells the user of a sign-in from a device and/or a country their earlier logins never used (see `README.md`,
 * "New device or country"), in one mail when both are new, with the browser, OS, address, country and time, and
 * their anti-phishing phrase so the mail can be trusted. Like {@link mailSecurityNotice} it follows a login
 * already made, so a notice that cannot be queued is only logged.
 */
export async function mailNewSignInNotice(
  m: Messengers,
  to: string,
  place: SignInPlace,
  news: SignInNews,
  phrase?: string | null,
): Promise<void> {
  const kind = news.device && news.country ? 'both' : news.country ? 'country' : 'device';
  const where = place.country ? ` in ${countryName(place.country)}` : '';
  try {
    await m.mail.send({
      to,
      template: NEWS_TEMPLATE[kind],
      subject: NEWS_SUBJECT[kind],
      text:
        withSecret`Your account was just signed in to ${NEWS_TEXT[kind]}: ${place.browser} on ${place.os}, ` +
        withSecret`from ${place.ip}${where}, at ${place.at.toISOString()} (UTC).\n\n` +
        'If this was you, nothing needs doing. If it was not, end that session in Settings › Devices, change ' +
        `your password and contact support immediately.${phishingLine(phrase)}`,
    });
  } catch (err) {
    (m.logger ?? console).warn(`new sign-in notice (${kind}) not queued: ${String(err)}`);
  }
}
