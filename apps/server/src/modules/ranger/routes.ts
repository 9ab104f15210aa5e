import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppDeps } from '../../app.ts';
import { sessionUser } from '../../http/auth.ts';
import { privateStream } from '../market-data/service.ts';
import { MAX_BUFFERED_BYTES, type StreamClient } from './hub.ts';

const MAX_STREAMS = 200;
const STREAM_NAME = /^[a-z0-9_.-]{1,64}$/;

function requestedStreams(request: FastifyRequest): string[] {
  const query = request.query as Record<string, string | string[] | undefined>;
  const raw = query.stream ?? query['stream[]'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.filter((s) => STREAM_NAME.test(s)).slice(0, MAX_STREAMS);
}

/** Private stream names a signed-in user may subscribe to; each is routed to that user only. */
const PRIVATE_STREAMS = new Set(['order', 'trade', 'balances', 'deposit_address', 'deposit', 'withdraw']);

/**
 * Connects a client. On `/private` (with a valid session cookie) the names `order`, `trade`, `balances` and
 * `deposit_address` map to the user's own channels; public names work on both endpoints.
 */
function attach(
  socket: WebSocket,
  request: FastifyRequest,
  deps: AppDeps,
  userId?: string,
  early: readonly RawData[] = [],
): void {
  const route = (streams: string[]) =>
    streams
      .map((s) => (userId && PRIVATE_STREAMS.has(s) ? privateStream(userId, s) : s))
      .filter((s) => !PRIVATE_STREAMS.has(s));
  const shown = (streams: Iterable<string>) => [...streams].map((s) => s.replace(/^u\d+\./, ''));
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
  deps.hub.subscribe(client, route(requestedStreams(request)));
  const onMessage = (data: RawData) => {
    const text = data.toString();
    if (text === 'ping') return socket.send('pong');
    let message: { event?: unknown; streams?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      return socket.send(JSON.stringify({ error: { message: 'invalid json' } }));
    }
    const streams = Array.isArray(message.streams)
      ? message.streams.filter((s): s is string => typeof s === 'string' && STREAM_NAME.test(s))
      : [];
    if (message.event === 'subscribe') {
      deps.hub.subscribe(client, route(streams).slice(0, MAX_STREAMS - client.streams.size));
      socket.send(JSON.stringify({ success: { message: 'subscribed', streams: shown(client.streams) } }));
    } else if (message.event === 'unsubscribe') {
      deps.hub.unsubscribe(client, route(streams));
      socket.send(JSON.stringify({ success: { message: 'unsubscribed', streams: shown(client.streams) } }));
    } else {
      socket.send(JSON.stringify({ error: { message: 'unsupported event' } }));
    }
  };
  socket.on('message', onMessage);
  socket.on('close', () => deps.hub.remove(client));
  for (const data of early) onMessage(data);
}

/** Ranger websocket endpoints: `/public`, and `/private` for signed-in users (session cookie). */
export async function rangerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  for (const path of ['/public', '/public/']) {
    app.get(path, { websocket: true }, (socket, request) => attach(socket, request, deps));
  }
  for (const path of ['/private', '/private/']) {
    app.get(path, { websocket: true }, async (socket, request) => {
      // A client subscribes as soon as the socket opens, while its session is still being looked up: what it
      // sends meanwhile is kept and handled, in order, once the session is known (it was lost before).
      const early: RawData[] = [];
      const keep = (data: RawData) => early.push(data);
      socket.on('message', keep);
      const found = await sessionUser(deps.db, deps.sessions, request).catch(() => null);
      socket.off('message', keep);
      if (socket.readyState !== socket.OPEN) return;
      if (found?.user.state !== 'active') {
        socket.send(JSON.stringify({ error: { message: 'authz.invalid_session' } }));
        socket.close(4001, 'authz.invalid_session');
        return;
      }
      attach(socket, request, deps, found.user.id, early);
    });
  }
}
