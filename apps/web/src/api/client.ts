import { API, STORAGE_KEYS } from '@exchange/shared';
import { messageFor, t } from '../i18n/index.ts';
import { encryptBody } from './encryption.ts';

/** A failed call, normalised (docs/accounts.md#errors): `code` is the HTTP status, `message` the translated text. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly errors: string[],
    message: string,
    /** Fields the error body carried next to `errors` (e.g. `left`, the login attempts remaining; `otp`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Which service a call goes to; each maps to its OpenDAX prefix. */
export type Service = 'barong' | 'peatio' | 'applogic' | 'admin';

interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a `FormData` sent as multipart as it is (uploads: not encrypted, the browser sets the boundary). */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

/** A list response with the pagination headers (`Total`, `Page`, `Per-Page`). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

function url(service: Service, path: string, query?: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  return `${API[service]}${path}${qs ? `?${qs}` : ''}`;
}

/** Codes of a 401 that mean the session is over (docs/accounts.md#errors). */
const SESSION_ENDED = new Set([
  'authz.invalid_session',
  'authz.client_session_mismatch',
  'authz.user_not_active',
]);
/** Calls whose 401 is an answer, not a lost session: the current-user probe and login itself. */
const SESSION_PROBES = ['/resource/users/me', '/identity/sessions'];

let sessionEnded: () => void = () => {
  if (window.location.pathname !== '/login') window.location.assign('/login');
};

/** True while the app ends the session itself (logout): a call still under way may then be refused, as expected. */
let endingSession = false;

/**
 * Runs `work` (a logout) as the app's own ending of the session: a 401 that a call still under way gets meanwhile
 * is no lost session, so it does not send the visitor to /login.
 */
export async function whileEndingSession<T>(work: () => Promise<T>): Promise<T> {
  endingSession = true;
  try {
    return await work();
  } finally {
    endingSession = false;
  }
}

/** Sets what happens when a call finds the session ended (the app clears the user and goes to /login). */
export function onSessionEnded(handler: () => void): void {
  sessionEnded = handler;
}

async function send(service: Service, path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const csrf = localStorage.getItem(STORAGE_KEYS.csrfToken);
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const multipart = options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url(service, path, options.query), {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers,
      body: await requestBody(path, options.body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(500, ['server.error'], t('server.error'));
  }
  if (!response.ok) {
    const error = await toApiError(response);
    const probe = SESSION_PROBES.some((p) => path === p || path.startsWith(`${p}/`));
    const ended = error.errors.some((e) => SESSION_ENDED.has(e));
    if (response.status === 401 && !probe && !endingSession && ended) {
      localStorage.removeItem(STORAGE_KEYS.csrfToken);
      sessionEnded();
    }
    throw error;
  }
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  let errors: string[] = [];
  let details: Record<string, unknown> = {};
  try {
    const { errors: list, error, ...rest } = (await response.json()) as Record<string, unknown>;
    details = rest;
    if (Array.isArray(list)) errors = list.filter((e): e is string => typeof e === 'string');
    else if (typeof error === 'string') errors = [error];
  } catch {
    // A body that is not JSON carries no codes; the status alone decides the message.
  }
  if (errors.length === 0) errors = [response.status === 504 ? 'server.connection_timeout' : 'server.error'];
  return new ApiError(response.status, errors, messageFor(errors[0] ?? 'server.error'), details);
}

async function requestBody(path: string, body: unknown): Promise<BodyInit | undefined> {
  if (body === undefined) return undefined;
  if (body instanceof FormData) return body;
  return JSON.stringify(await sealed(path, body));
}

/**
 * The body as sent: encrypted (docs/accounts.md#api) except on public paths, or where the browser has no WebCrypto
 * (a page served over plain HTTP on a non-local address); the server accepts plain JSON too.
 */
async function sealed(path: string, body: unknown): Promise<unknown> {
  if (path.includes('public') || !globalThis.crypto?.subtle) return body;
  try {
    return await encryptBody(body, `${API.barong}/identity/encryption_key`);
  } catch {
    return body;
  }
}

/** Calls the API and returns the parsed JSON body (or undefined for an empty body). */
export async function api<T>(service: Service, path: string, options: CallOptions = {}): Promise<T> {
  const response = await send(service, path, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file the API answered (a download): its bytes and the name `Content-Disposition` gives it. */
export interface Download {
  blob: Blob;
  filename: string;
}

/**
 * Calls an endpoint that answers a file (the data export) and reads it whole; a refusal throws {@link ApiError} as
 * any call does. The browser holds the file until it is saved: the server streams it, the page cannot.
 */
export async function apiDownload(service: Service, path: string, fallbackName: string): Promise<Download> {
  const response = await send(service, path, {});
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  return { blob: await response.blob(), filename: named ?? fallbackName };
}

/** Calls a list endpoint and reads its pagination headers. */
export async function apiPage<T>(
  service: Service,
  path: string,
  options: CallOptions = {},
): Promise<Page<T>> {
  const response = await send(service, path, options);
  const items = (await response.json()) as T[];
  const header = (name: string, fallback: number) => Number(response.headers.get(name) ?? fallback);
  return {
    items,
    total: header('Total', items.length),
    page: header('Page', 1),
    perPage: header('Per-Page', items.length),
  };
}
