import { ERRORS } from '@exchange/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyAuthenticator } from '../modules/api-keys/hmac.ts';
import { safeEqual } from '../modules/identity/crypto.ts';
import { SESSION_COOKIE, type SessionStore } from '../modules/identity/sessions.ts';
import type { UserDirectory } from '../modules/identity/user-directory.ts';
import type { UserRecord } from '../modules/identity/users-repository.ts';
import { AppError } from './errors.ts';

/** The signed-in user of a request, as far as the server can tell. */
export interface RequestUser {
  id: string;
  email: string;
}

/** What the authentication hooks read: the user cache, the sessions and the API keys. */
export interface AuthDeps {
  /** Users as requests see them, cached while the change feed is heard. */
  users: UserDirectory;
  /** Browser sessions (the cookie's). */
  sessions: SessionStore;
  /** Signed API-key requests. */
  apiKeys: ApiKeyAuthenticator;
}

/** Who made an authenticated request and how. */
export interface AuthContext {
  user: UserRecord;
  via: 'session' | 'apikey';
  sessionId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
    /** When the request reached this process (ms since the epoch), set by the app's first hook. */
    receivedAt: number;
  }
}

/** Methods that change nothing: no CSRF token is asked for them. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Resolves the session cookie to an active user, or null (no cookie, unknown, expired or revoked session). */
export async function sessionUser(
  users: UserDirectory,
  sessions: SessionStore,
  request: FastifyRequest,
): Promise<{ user: UserRecord; sessionId: string; csrfToken: string } | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const session = await sessions.resolve(token);
  if (!session) return null;
  const user = await users.user(session.userId);
  return user ? { user, sessionId: session.id, csrfToken: session.csrfToken } : null;
}

/** Options of {@link requireAuth}. */
export interface RequireAuthOptions {
  /**
   * False only for logout: BaseApp ends its session with the cookie alone, and ending one's own session is
   * harmless (the cookie is SameSite=Lax, so another site cannot send this DELETE with it anyway).
   */
  csrf?: boolean;
}

/**
 * Hook for protected routes. Programs sign with an API key (see ApiKeyAuthenticator). Browsers need a live
 * session (401 `authz.invalid_session`) of an active user (401 `authz.user_not_active`), and their mutating
 * requests must echo the session's CSRF token in X-CSRF-Token (401 `authz.missing_csrf_token` /
 * `authz.csrf_token_mismatch`, as Barong answers them; BaseApp resets its session on a 401). Every answer behind it
 * carries `Cache-Control: no-store`.
 */
export function requireAuth(
  users: UserDirectory,
  sessions: SessionStore,
  apiKeys?: ApiKeyAuthenticator,
  options: RequireAuthOptions = {},
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Answers behind authentication are personal: no browser or proxy keeps them (also the 401s).
    reply.header('cache-control', 'no-store');
    if (apiKeys && request.headers['x-auth-apikey'] !== undefined && !request.cookies[SESSION_COOKIE]) {
      request.auth = {
        user: await apiKeys.authenticate(request.headers, request.receivedAt || undefined, request.ip),
        via: 'apikey',
      };
      return;
    }
    const found = await sessionUser(users, sessions, request);
    if (!found) throw new AppError(401, [ERRORS.invalidSession]);
    if (found.user.state !== 'active') throw new AppError(401, [ERRORS.userNotActive]);
    if (options.csrf !== false && !SAFE_METHODS.has(request.method)) {
      const header = request.headers['x-csrf-token'];
      if (!header) throw new AppError(401, [ERRORS.missingCsrf]);
      // Constant time: the comparison must not tell, by how long it takes, how much of a guess was right.
      if (typeof header !== 'string' || !safeEqual(header, found.csrfToken))
        throw new AppError(401, [ERRORS.csrfMismatch]);
    }
    request.auth = { user: found.user, via: 'session', sessionId: found.sessionId };
  };
}

/** The authenticated user of a request that passed {@link requireAuth}. */
export function authUser(request: FastifyRequest): UserRecord {
  if (!request.auth) throw new AppError(401, [ERRORS.invalidSession]);
  return request.auth.user;
}

/** Resolves the optional signed-in user of a request (for routes open to both visitors and users). */
export function currentUserResolver(users: UserDirectory, sessions: SessionStore) {
  return async (request: FastifyRequest): Promise<{ id: string; email: string } | null> => {
    const found = await sessionUser(users, sessions, request);
    return found ? { id: found.user.id, email: found.user.email } : null;
  };
}
