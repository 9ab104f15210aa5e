import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../../app.ts';
import { MAX_BUFFERED_BYTES, type StreamClient } from './hub.ts';

const MAX_STREAMS = 200;
const STREAM_NAME = /^[a-z0-9_.-]{1,64}$/;

function requestedStreams(request: FastifyRequest): string[] {
  const query = request.query as Record<string, string | string[] | undefined>;
  const raw = query.stream ?? query['stream[]'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.filter((s) => STREAM_NAME.test(s)).slice(0, MAX_STREAMS);
}

function attach(socket: WebSocket, request: FastifyRequest, deps: AppDeps): void {
  const client: StreamClient = {
    streams: new Set(),
    send(frame) {
      if (socket.readyState !== socket.OPEN || socket.bufferedAmount > MAX_BUFFERED_BYTES) return false;
      socket.send(frame);
      return true;
    },
    close: () => socket.close(1008, 'slow consumer'),
  };
  deps.hub.subscribe(client, requestedStreams(request));
  socket.on('message', (data) => {
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
      deps.hub.subscribe(client, streams.slice(0, MAX_STREAMS - client.streams.size));
      socket.send(JSON.stringify({ success: { message: 'subscribed', streams: [...client.streams] } }));
    } else if (message.event === 'unsubscribe') {
      deps.hub.unsubscribe(client, streams);
      socket.send(JSON.stringify({ success: { message: 'unsubscribed', streams: [...client.streams] } }));
    } else {
      socket.send(JSON.stringify({ error: { message: 'unsupported event' } }));
    }
  });
  socket.on('close', () => deps.hub.remove(client));
}

/** Ranger websocket endpoints: `/public` and `/private` (private streams arrive with the identity issue). */
export async function rangerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/public', { websocket: true }, (socket, request) => attach(socket, request, deps));
  app.get('/public/', { websocket: true }, (socket, request) => attach(socket, request, deps));
}
