import type { SmsInbox } from '../sms/port.ts';

/** A simulated mailbox gives delivered texts by message id, each once, as the phone inbox does. */
export type MailInbox = SmsInbox;

/** The mail simulator's mailbox, as it is read. */
export interface SimulatorMailboxOptions {
  /** The simulator's base URL (where its mailbox is); null while the server does not listen yet. */
  baseUrl: () => string | null;
  user: string;
  password: string;
  timeoutMs?: number;
  /** Makes the request (fetch by default; the one process passes its own, see compose-providers.ts). */
  fetch?: typeof fetch;
}

/** A Message-ID as the SMTP sender records it: angle brackets around id-left@id-right. */
const MESSAGE_ID = /^<[^<>,\s]{1,250}>$/;

/**
 * The mail simulator's mailbox over HTTP (`GET {base}/mailbox?message_id=…`, Basic with its SMTP login): the
 * development outbox asks it for the texts of the mails it shows. A real mail server has no such thing.
 */
export function simulatorMailbox(options: SimulatorMailboxOptions): MailInbox {
  const authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  return {
    async take(refs) {
      const base = options.baseUrl();
      const wanted = refs.filter((ref) => MESSAGE_ID.test(ref));
      if (!base || wanted.length === 0) return new Map();
      const query = new URLSearchParams({ message_id: wanted.join(','), limit: String(wanted.length) });
      const response = await (options.fetch ?? fetch)(`${base}/mailbox?${query}`, {
        headers: { authorization },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`mail simulator mailbox: HTTP ${response.status}`);
      const messages = (await response.json()) as { message_id: string; text: string | null }[];
      // A mail's text comes back with the line break that ends the body on the wire; the template has none.
      return new Map(
        messages.flatMap((m) =>
          m.text === null ? [] : [[m.message_id, m.text.replace(/\r?\n$/, '')] as const],
        ),
      );
    },
  };
}
