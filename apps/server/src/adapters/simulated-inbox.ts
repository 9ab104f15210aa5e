/**
 * A simulator's inbox (the SMS simulator's phone, the mail simulator's mailbox; never a real provider's): the
 * delivered texts of messages by their provider ids, each text given on one read only (later reads get none).
 */
export interface SimulatedInbox {
  /** The delivered texts of these messages that were not read yet, by message id. */
  take(refs: string[]): Promise<Map<string, string>>;
}

/** Where a simulator's inbox is and how its answer reads. */
export interface SimulatedInboxOptions {
  /** The simulator's base URL; null while the server does not listen yet. */
  baseUrl: () => string | null;
  /** The inbox's path under it, e.g. `/inbox`. */
  path: string;
  /** The query parameter the ids go in (comma-separated), and the shape an id must have to be asked for. */
  idParam: string;
  idPattern: RegExp;
  /** HTTP Basic credentials. */
  user: string;
  password: string;
  /** One message of the answer: its id and its text (null once read). */
  read(message: Record<string, unknown>): { id: string; text: string | null };
  timeoutMs?: number;
  /** Makes the request (fetch by default; the one process passes its own, see compose-providers.ts). */
  fetch?: typeof fetch;
}

/** Reads a simulator's inbox over HTTP: `GET {base}{path}?{idParam}=…&limit=…`, the texts not read yet by id. */
export function simulatedInbox(options: SimulatedInboxOptions): SimulatedInbox {
  const authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  return {
    async take(refs) {
      const base = options.baseUrl();
      const wanted = refs.filter((ref) => options.idPattern.test(ref));
      if (!base || wanted.length === 0) return new Map();
      const query = new URLSearchParams({
        [options.idParam]: wanted.join(','),
        limit: String(wanted.length),
      });
      const response = await (options.fetch ?? fetch)(`${base}${options.path}?${query}`, {
        headers: { authorization },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`simulator inbox ${options.path}: HTTP ${response.status}`);
      const texts = new Map<string, string>();
      for (const message of (await response.json()) as Record<string, unknown>[]) {
        const { id, text } = options.read(message);
        if (text !== null) texts.set(id, text);
      }
      return texts;
    },
  };
}
