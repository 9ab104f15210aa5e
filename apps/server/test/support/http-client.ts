import type { OutboxMessage } from '@exchange/shared';
import { createTestApp, type TestApp } from './app.ts';

/** One answer over the wire: status, headers, the body as text and, when it parses, as JSON. */
export interface WireAnswer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON came back
  json: any;
}

/**
 * An HTTP client over a real socket (fetch) against a listening app, as an outside program or a browser's
 * script sends requests: it keeps the session cookie the server sets and sends `X-CSRF-Token` once it has one.
 * No `Origin` header unless a test passes one (programs send none).
 */
export class HttpClient {
  cookie = '';
  csrf = '';

  constructor(readonly base: string) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<WireAnswer> {
    const sent: Record<string, string> = { ...headers };
    if (this.cookie) sent.cookie = this.cookie;
    if (this.csrf && method !== 'GET') sent['x-csrf-token'] = this.csrf;
    let payload: string | undefined;
    if (body !== undefined && typeof body === 'string') payload = body;
    else if (body !== undefined) {
      sent['content-type'] ??= 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: sent,
      redirect: 'manual',
      ...(payload === undefined ? {} : { body: payload }),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
    const session = set.find((c) => c.startsWith('session='));
    if (session !== undefined) this.cookie = session === 'session=' ? '' : session;
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  barong = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call(method, `/api/v2/barong${path}`, body, headers);
  peatio = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call(method, `/api/v2/peatio${path}`, body, headers);
}

/** The newest messages to `to` from the dev outbox, over the wire (the app must listen on loopback). */
export async function wireOutbox(base: string, to: string, limit = 1): Promise<OutboxMessage[]> {
  const res = await fetch(`${base}/api/v2/barong/dev/outbox?to=${encodeURIComponent(to)}&limit=${limit}`);
  if (res.status !== 200) throw new Error(`dev outbox: ${res.status} ${await res.text()}`);
  return (await res.json()) as OutboxMessage[];
}

/** A test app listening on loopback, its `PUBLIC_URL` its own address (mailed links lead there). */
export interface Served {
  t: TestApp;
  base: string;
}

/** Starts a {@link Served} app with `env`; per-IP limits off (every request comes from 127.0.0.1). */
export async function serveOverSocket(env: Record<string, string>): Promise<Served> {
  const t = await createTestApp({}, { RATE_LIMITS: 'false', ...env });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.deps.config.publicUrl = base;
  return { t, base };
}

/** The newest mail to `to` (its secret taken). */
export async function lastMail(served: Served, to: string): Promise<OutboxMessage> {
  const [mail] = await wireOutbox(served.base, to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}
