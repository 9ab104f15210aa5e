import { multipart } from '../kyc/sumsub.ts';
import {
  type CardIssuer,
  CardIssuerError,
  type IssuerCard,
  type IssuerGpaOrder,
  type IssuerKyc,
  type IssuerTransactionPage,
  type IssuerTransition,
  type IssuerUser,
} from './port.ts';
import { basicAuth } from './signing.ts';

export interface MarqetaOptions {
  /** `https://sandbox-api.marqeta.com/v3`, or the simulator's address; a function when known only after listen. */
  baseUrl: string | (() => string);
  /** Application token (the Basic user name). */
  username: string;
  /** Admin access token (the Basic password). */
  password: string;
  /** The card product new cards are made from. */
  cardProductToken: string;
  kind?: 'simulator' | 'marqeta';
  /** Per-call time limit (default 15 s); going over it is a 504. */
  timeoutMs?: number;
}

/**
 * The Marqeta Core API adapter: JSON over HTTPS with Basic authentication. It speaks to Marqeta, or to the
 * built-in simulator, which answers the same paths the same way (plus its document extension).
 */
export function createMarqetaIssuer(options: MarqetaOptions): CardIssuer {
  const base = () =>
    (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl).replace(/\/+$/, '');
  const simulator = (options.kind ?? 'marqeta') === 'simulator';

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: { json: unknown } | { raw: Buffer; contentType: string },
  ): Promise<T> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: basicAuth(options.username, options.password),
    };
    let payload: Buffer | undefined;
    if (body && 'json' in body) {
      payload = Buffer.from(JSON.stringify(body.json));
      headers['Content-Type'] = 'application/json';
    } else if (body) {
      payload = body.raw;
      headers['Content-Type'] = body.contentType;
    }
    let response: Response;
    try {
      response = await fetch(`${base()}${path}`, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new CardIssuerError(504, `card issuer timed out: ${method} ${routeOf(path)}`);
      throw new CardIssuerError(502, `card issuer unreachable: ${(err as Error).message}`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new CardIssuerError(504, `card issuer timed out: ${method} ${routeOf(path)}`);
    }
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const message = (data as { error_message?: string } | undefined)?.error_message ?? text.slice(0, 200);
      throw new CardIssuerError(response.status, `card issuer ${response.status}: ${message}`);
    }
    return data as T;
  }

  return {
    kind: options.kind ?? 'marqeta',
    async createUser(input) {
      try {
        return await call<IssuerUser>('POST', '/users', { json: input });
      } catch (err) {
        // The token is ours: a retry after a lost answer finds the user it already created.
        if (err instanceof CardIssuerError && err.status === 409)
          return call<IssuerUser>('GET', `/users/${encodeURIComponent(input.token)}`);
        throw err;
      }
    },
    async uploadDocument(userToken, document) {
      if (!simulator) return null;
      const form = multipart([
        { name: 'doc_type', value: document.doc_type },
        {
          name: 'document',
          fileName: `${document.doc_type}.${document.mime_type === 'image/png' ? 'png' : 'jpg'}`,
          contentType: document.mime_type,
          value: document.content,
        },
      ]);
      return call<{ token: string }>('POST', `/users/${encodeURIComponent(userToken)}/documents`, {
        raw: form.body,
        contentType: form.contentType,
      });
    },
    requestKyc: (input) => call<IssuerKyc>('POST', '/kyc', { json: input }),
    createCard: (input) =>
      call<IssuerCard>('POST', '/cards?show_pan=true', {
        json: { card_product_token: options.cardProductToken, ...input },
      }),
    async getCard(token, showPan = false) {
      try {
        return await call<IssuerCard>('GET', `/cards/${encodeURIComponent(token)}?show_pan=${showPan}`);
      } catch (err) {
        if (err instanceof CardIssuerError && err.status === 404) return null;
        throw err;
      }
    },
    createGpaOrder: (input) => call<IssuerGpaOrder>('POST', '/gpaorders', { json: input }),
    listTransactions: (q) =>
      call<IssuerTransactionPage>(
        'GET',
        `/transactions?${new URLSearchParams({
          card_token: q.card_token,
          start_date: q.start_date,
          end_date: q.end_date,
          state: q.settled ? 'COMPLETION,DECLINED,CLEARED' : 'PENDING',
          start_index: String(q.start_index),
          count: String(q.count),
          sort_by: '-createdTime',
        })}`,
      ),
    transitionCard: (input) => call<IssuerTransition>('POST', '/cardtransitions', { json: input }),
    async revealPin(cardToken) {
      const { control_token } = await call<{ control_token: string }>('POST', '/pins/controltoken', {
        json: { card_token: cardToken, controltoken_type: 'REVEAL_PIN' },
      });
      const { pin } = await call<{ pin: string }>('POST', '/pins/reveal', {
        json: { control_token, cardholder_verification_method: 'LOGIN' },
      });
      return pin;
    },
  };
}

/** The path without its query or identifiers, for messages (no card token or number ends up in a log). */
function routeOf(path: string): string {
  return path.split('?')[0]!.replace(/\/[^/]*\d[^/]*$/, '/{token}');
}
