import type { SmsInbox } from './port.ts';

/** The SMS simulator's account, as its phone inbox is read with. */
export interface SimulatorInboxOptions {
  /** The simulator's base URL (where its Twilio API is); null while the server does not listen yet. */
  baseUrl: () => string | null;
  accountSid: string;
  authToken: string;
  timeoutMs?: number;
  /** Makes the request (fetch by default; the one process passes its own, see compose-providers.ts). */
  fetch?: typeof fetch;
}

/**
 * The SMS simulator's phone inbox over HTTP (`GET {base}/inbox?sid=…`, Basic with the account's SID and token):
 * the development outbox asks it for the texts of the messages it shows. A real provider has no such thing.
 */
export function simulatorInbox(options: SimulatorInboxOptions): SmsInbox {
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    async take(refs) {
      const base = options.baseUrl();
      const wanted = refs.filter((ref) => /^SM[0-9a-f]{32}$/.test(ref));
      if (!base || wanted.length === 0) return new Map();
      const response = await (options.fetch ?? fetch)(
        `${base}/inbox?sid=${wanted.join(',')}&limit=${wanted.length}`,
        { headers: { authorization }, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) },
      );
      if (!response.ok) throw new Error(`SMS simulator inbox: HTTP ${response.status}`);
      const messages = (await response.json()) as { sid: string; body: string | null }[];
      return new Map(messages.flatMap((m) => (m.body === null ? [] : [[m.sid, m.body] as const])));
    },
  };
}
