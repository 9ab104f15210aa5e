import type { RouteSecurity } from './openapi.ts';
import type { Json } from './openapi-schemas.ts';

/** Who may call what, as the API documents say it: the security schemes and each route's requirements. */

const SESSION = { session: [] };
const SESSION_CSRF = { session: [], csrf: [] };
const API_KEY = { apiKey: [], apiNonce: [], apiSignature: [] };
const BEARER = { bearer: [] };
/** The methods that change nothing: no CSRF token, no body. */
export const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The security schemes of every document. */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: 'The HttpOnly session cookie that a login sets (Barong `POST /identity/sessions`).',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      "The session's CSRF token (`csrf_token` of the login answer), on every change made with a session.",
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Auth-Apikey',
    description: 'The kid of an API key (HS256); with X-Auth-Nonce and X-Auth-Signature.',
  },
  apiNonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Auth-Nonce',
    description: 'Milliseconds since the epoch, within 5 s of the server clock, never used twice.',
  },
  apiSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Auth-Signature',
    description: 'hex(HMAC-SHA256(secret, nonce + kid)).',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "Barong's session JWT (RS256) from `/api/v2/barong/auth/*`.",
  },
};

/** Who may call a route when it does not say: what its document and path say. */
export function defaultSecurity(prefix: string, path: string, sessionOnly: boolean): RouteSecurity {
  const account = sessionOnly ? 'session' : 'sessionOrKey';
  if (path === '/swagger') return 'none';
  if (prefix.endsWith('/barong')) {
    if (path.startsWith('/resource/')) return account;
    if (path.startsWith('/auth/')) return 'sessionOrKey';
    return 'none';
  }
  if (prefix.endsWith('/peatio'))
    return path.startsWith('/account/') || path.startsWith('/market/') ? account : 'none';
  if (prefix.endsWith('/admin')) return 'session';
  if (prefix.endsWith('/ranger')) return path.startsWith('/private') ? 'stream' : 'none';
  return 'none';
}

/** The security requirements of a route of `kind` called with `method` (a change with a session needs the CSRF token). */
export function securityOf(kind: RouteSecurity, method: string): Json[] {
  const session = SAFE.has(method) ? SESSION : SESSION_CSRF;
  switch (kind) {
    case 'none':
      return [];
    case 'session':
      return [session];
    case 'sessionNoCsrf':
      return [SESSION];
    case 'sessionOrKey':
      return [session, API_KEY];
    case 'stream':
      return [SESSION, API_KEY, BEARER];
  }
}
