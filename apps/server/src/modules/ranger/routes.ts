import { ERRORS } from '@exchange/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { sessionUser } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import { userOfClaims } from '../identity/jwt.ts';
import { SESSION_COOKIE } from '../identity/sessions.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import type { RangerRouteDeps } from './deps.ts';
import { MAX_BUFFERED_BYTES, type StreamClient } from './hub.ts';
import { clientStreamName, queryStreamNames, routeStreams } from './streams.ts';

/** Most streams one connection may have, whether asked for in the query string or in messages. */
const MAX_STREAMS = 200;

/** Ranger's answer to a subscribe or unsubscribe message that names no stream. */
const NO_STREAMS = JSON.stringify({ error: { message: 'streams must be a non-empty list' } });
const UNSUPPORTED = JSON.stringify({ error: { message: 'unsupported event' } });
/** The answer naming streams that do not exist (never a silent drop). */
export const UNKNOWN_STREAM = 'unknown stream';
/** The answer naming private streams asked for on `/public`: they are served on `/private` only. */
export const PRIVATE_STREAM_ON_PUBLIC = 'private stream: connect to /private';

/** The query of an upgrade: the streams to subscribe to at once (repeated, or comma lists). */
const rangerStreamsQuery = z.object({
  stream: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('A stream name, or a comma list'),
});

/** How long `/private` without credentials waits for a `jwt` message before it refuses the connection. */
export const JWT_MESSAGE_WAIT_MS = 3000;
/** The one code every refused JWT gets (Peatio's and Barong's). */
export const JWT_REFUSED = 'jwt.decode_and_verify';

/** Who a connection is for: set on `/private` at once, on `/public` by a `jwt` message. */
interface Identity {
  userId?: string;
}

/** The token of `Bearer <jwt>` (header or message); a message may also give the bare token. */
function bearerToken(value: unknown, bare: boolean): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
  if (match) return match[1];
  return bare && /^\S+$/.test(value) ? value : undefined;
}

/**
 * The token of a `jwt` message: Ranger's `{"event":"jwt","jwt":"Bearer <token>"}`, or the older
 * `{"jwt":"Bearer <token>"}` without an event. Undefined for any other message.
 */
function jwtMessage(message: unknown): { token: string | undefined } | undefined {
  if (typeof message !== 'object' || message === null || !('jwt' in message)) return undefined;
  const { event, jwt } = message as { event?: unknown; jwt?: unknown };
  if (event !== undefined && event !== 'jwt') return undefined;
  return { token: bearerToken(jwt, true) };
}

/**
 * The active user of a session JWT this server issued, while its session or API key stands (and, for a key
 * restricted to addresses, presented from one of them); else undefined.
 */
async function jwtUser(
  deps: RangerRouteDeps,
  token: string | undefined,
  ip: string,
): Promise<UserRecord | undefined> {
  if (!token) return undefined;
  try {
    const claims = await deps.jwt.verify(token);
    return await userOfClaims(deps.db, claims, deps.sessions.liveness(), ip);
  } catch {
    return undefined;
  }
}

/** The names of `?stream=a&stream=b,c` (and `stream[]=`, which the query parser files under `stream`). */
function requestedStreams(request: FastifyRequest): string[] {
  const query = request.query as Record<string, unknown>;
  return queryStreamNames(query.stream ?? query['stream[]'], MAX_STREAMS);
}

/**
 * Connects a client. Every name it sends, in the query string or a message, goes through `routeStreams`:
 * public streams by their exact names, and on `/private` (`userId` set) the names `order`, `trade`, `balances`,
 * `deposit_address`, `deposit`, `withdraw`, `gateway.deposit` and `favmarket` for the session's own user only.
 * A query string that names streams is answered like a subscribe message,
 * `{"success":{"message":"subscribed","streams":[...]}}`; names that are refused get an error frame first,
 * `{"error":{"message":"unknown stream","streams":[...]}}` (or the private-stream message on `/public`).
 */
function attach(
  socket: WebSocket,
  request: FastifyRequest,
  deps: RangerRouteDeps,
  identity: Identity = {},
  early: readonly RawData[] = [],
): void {
  // Names that are refused are answered with an error frame naming them, before the subscription answer.
  const route = (names: readonly unknown[]) => {
    const routed = routeStreams(names, identity.userId);
    if (routed.unknown.length > 0)
      socket.send(JSON.stringify({ error: { message: UNKNOWN_STREAM, streams: routed.unknown } }));
    if (routed.privateOnly.length > 0)
      socket.send(
        JSON.stringify({ error: { message: PRIVATE_STREAM_ON_PUBLIC, streams: routed.privateOnly } }),
      );
    return routed.streams.map((s) => s.key);
  };
  const shown = (keys: Iterable<string>) => [...keys].map(clientStreamName);
  // The connection under the websocket: a committed batch's frames are written to it directly (StreamHub).
  const raw = request.raw.socket;
  const client: StreamClient = {
    streams: new Set(),
    send(frame) {
      if (socket.readyState !== socket.OPEN || socket.bufferedAmount > MAX_BUFFERED_BYTES) return false;
      socket.send(frame, { binary: false });
      return true;
    },
    // Without permessage-deflate (off, the ws default) ws writes every frame to the connection at once, so a
    // frame written here directly keeps its place among the ones ws sends (pong, subscribe answers).
    sendFrame(frames) {
      if (socket.readyState !== socket.OPEN || socket.bufferedAmount > MAX_BUFFERED_BYTES) return false;
      raw.write(frames);
      return true;
    },
    close: () => socket.close(1008, 'slow consumer'),
  };
  deps.hub.attach(client);
  const answer = (message: string) =>
    socket.send(JSON.stringify({ success: { message, streams: shown(client.streams) } }));
  const asked = requestedStreams(request);
  if (asked.length > 0) {
    deps.hub.subscribe(client, route(asked));
    // Ranger answers a subscription in the query string as it answers a subscribe message.
    answer('subscribed');
  }
  const onMessage = (data: RawData) => {
    const text = data.toString();
    if (text === 'ping') return socket.send('pong');
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return socket.send(JSON.stringify({ error: { message: 'invalid json' } }));
    }
    // `null`, a number or a list is valid JSON but no event (reading `.event` of null would throw here).
    if (typeof message !== 'object' || message === null) return socket.send(UNSUPPORTED);
    const jwt = jwtMessage(message);
    if (jwt) return void authenticate(jwt.token);
    const { event, streams } = message as { event?: unknown; streams?: unknown };
    if (event !== 'subscribe' && event !== 'unsubscribe') return socket.send(UNSUPPORTED);
    // As Ranger: an event without streams is refused, not answered with the unchanged list.
    if (!Array.isArray(streams) || streams.length === 0) return socket.send(NO_STREAMS);
    const names = route(streams.slice(0, MAX_STREAMS));
    if (event === 'subscribe') {
      deps.hub.subscribe(client, names.slice(0, MAX_STREAMS - client.streams.size));
      answer('subscribed');
    } else {
      deps.hub.unsubscribe(client, names);
      answer('unsubscribed');
    }
  };
  /**
   * A `jwt` message: the connection's user from then on (`/public` may then subscribe to private streams). A
   * connection never changes user: a token of someone else is refused, as is a forged or expired one.
   */
  const authenticate = async (token: string | undefined) => {
    const user = await jwtUser(deps, token, request.ip);
    if (socket.readyState !== socket.OPEN) return;
    if (!user || (identity.userId !== undefined && identity.userId !== user.id))
      return socket.send(JSON.stringify({ error: { message: JWT_REFUSED } }));
    identity.userId = user.id;
    socket.send(JSON.stringify({ success: { message: 'authenticated' } }));
  };
  socket.on('message', onMessage);
  socket.on('close', () => deps.hub.remove(client));
  for (const data of early) onMessage(data);
}

/**
 * True when a browser page of another origin opens the socket. Browsers always send `Origin` on an upgrade; a
 * page of our own origin (`PUBLIC_URL`, or the host it was served from) may use the session cookie.
 */
function crossOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  if (origin === new URL(publicUrl).origin) return false;
  const host = request.headers.host;
  return !(host && (origin === `http://${host}` || origin === `https://${host}`));
}

/** The users of `/private` upgrades whose `Authorization: Bearer` JWT was checked before the upgrade. */
const bearerUsers = new WeakMap<FastifyRequest, UserRecord>();

/**
 * The user of a `/private` connection: a checked bearer JWT's, an API key's owner (programs), else the session
 * cookie's user.
 */
async function privateUser(deps: RangerRouteDeps, request: FastifyRequest): Promise<UserRecord | undefined> {
  const bearer = bearerUsers.get(request);
  if (bearer) return bearer;
  if (request.headers['x-auth-apikey'] !== undefined && !request.cookies[SESSION_COOKIE]) {
    return deps.apiKeys.authenticate(request.headers, request.receivedAt || undefined, request.ip);
  }
  return (await sessionUser(deps.users, deps.sessions, request))?.user;
}

/** True when an upgrade brings no credentials at all: it may still authenticate with a `jwt` message. */
const withoutCredentials = (request: FastifyRequest) =>
  !request.cookies[SESSION_COOKIE] &&
  request.headers['x-auth-apikey'] === undefined &&
  request.headers.authorization === undefined;

/**
 * The user of the first message of a connection that came without credentials, when it is a valid `jwt` message
 * (waited for up to {@link JWT_MESSAGE_WAIT_MS}). `early` collects every message meanwhile; the `jwt` message is
 * taken out of it, the others are handled once the connection is attached.
 */
async function jwtFromFirstMessage(
  deps: RangerRouteDeps,
  socket: WebSocket,
  early: RawData[],
  /** The client's address: a token of an address-restricted API key counts from its addresses only. */
  ip: string,
): Promise<UserRecord | undefined> {
  if (early.length === 0)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, JWT_MESSAGE_WAIT_MS);
      function done() {
        clearTimeout(timer);
        socket.off('message', done);
        socket.off('close', done);
        resolve();
      }
      socket.on('message', done);
      socket.on('close', done);
    });
  const first = early[0];
  if (!first) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(first.toString());
  } catch {
    return undefined;
  }
  const jwt = jwtMessage(message);
  if (!jwt) return undefined;
  early.shift();
  const user = await jwtUser(deps, jwt.token, ip);
  if (socket.readyState !== socket.OPEN) return undefined;
  if (!user) {
    socket.send(JSON.stringify({ error: { message: JWT_REFUSED } }));
    socket.close(4001, JWT_REFUSED);
    return undefined;
  }
  socket.send(JSON.stringify({ success: { message: 'authenticated' } }));
  return user;
}

/**
 * Ranger websocket endpoints: `/public`, and `/private` for signed-in users (session cookie, or an API key's
 * X-Auth headers). A cookie-authenticated upgrade from a page of another origin is refused before the upgrade,
 * so a foreign site cannot read a visitor's private streams with the visitor's cookie.
 */
export async function rangerRoutes(app: FastifyInstance, deps: RangerRouteDeps): Promise<void> {
  for (const path of ['/public', '/public/']) {
    app.get(
      path,
      docs(
        'Public streams (websocket upgrade; stream query parameters)',
        { query: rangerStreamsQuery, content: 'websocket' },
        { websocket: true },
      ),
      (socket, request) => attach(socket, request, deps),
    );
  }
  const refuseForeignPages = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.cookies[SESSION_COOKIE] && crossOrigin(request, deps.config.publicUrl)) {
      return reply.status(403).send({ errors: [ERRORS.originNotAllowed] });
    }
    // Rango's `Authorization: Bearer <jwt>`: checked before the upgrade, a bad token gets no socket (401).
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      const user = await jwtUser(deps, bearerToken(authorization, false), request.ip);
      if (!user) return reply.status(401).send({ errors: [JWT_REFUSED] });
      bearerUsers.set(request, user);
    }
  };
  for (const path of ['/private', '/private/']) {
    app.get(
      path,
      docs(
        'Private streams of the signed-in user (websocket upgrade): session cookie, API key, Authorization: Bearer <jwt>, or a first {"event":"jwt"} message',
        { query: rangerStreamsQuery, content: 'websocket' },
        { websocket: true, preValidation: refuseForeignPages },
      ),
      async (socket, request) => {
        // A client subscribes as soon as the socket opens, while its session is still being looked up: what it
        // sends meanwhile is kept and handled, in order, once the session is known (it was lost before).
        const early: RawData[] = [];
        const keep = (data: RawData) => early.push(data);
        socket.on('message', keep);
        let user = await privateUser(deps, request).catch(() => undefined);
        // No credentials at all: Ranger's clients may send a `jwt` message first.
        if (!user && withoutCredentials(request))
          user = await jwtFromFirstMessage(deps, socket, early, request.ip);
        socket.off('message', keep);
        if (socket.readyState !== socket.OPEN) return;
        if (user?.state !== 'active') {
          socket.send(JSON.stringify({ error: { message: ERRORS.invalidSession } }));
          socket.close(4001, ERRORS.invalidSession);
          return;
        }
        attach(socket, request, deps, { userId: user.id }, early);
      },
    );
  }
}
