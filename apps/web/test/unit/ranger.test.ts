import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, WebSocket as WsClient } from 'ws';
import { RangerSocket, RECONNECT_MS } from '../../src/api/ranger.ts';

const POLL = { timeout: 5_000, interval: 20 };

interface Connection {
  socket: WsClient;
  messages: unknown[];
}

/** A Ranger stand-in on loopback that records every connection and the JSON messages it receives. */
async function startServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const connections: Connection[] = [];
  server.on('connection', (socket) => {
    const connection: Connection = { socket, messages: [] };
    connections.push(connection);
    socket.on('message', (data) => {
      const text = String(data);
      connection.messages.push(text === 'ping' ? text : JSON.parse(text));
    });
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const close = async () => {
    for (const c of connections) c.socket.terminate();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, connections, close };
}

describe('ranger client against a websocket server', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('subscribes, delivers frames, and after a dropped connection reconnects and subscribes to every stream again', async () => {
    const server = await startServer();
    stop = server.close;
    const client = new RangerSocket('public', {
      url: () => server.url,
      connect: (url) => new WsClient(url) as unknown as WebSocket,
    });
    const received: [string, unknown][] = [];
    const unwatchTrades = client.watch(['ethbtc.trades'], (payload, key) => received.push([key, payload]));
    const unwatchBook = client.watch(['ethbtc.ob-inc'], (payload, key) => received.push([key, payload]), [
      'ethbtc.ob-inc',
      'ethbtc.ob-snap',
    ]);

    await expect
      .poll(() => server.connections[0]?.messages, POLL)
      .toEqual([{ event: 'subscribe', streams: ['ethbtc.trades', 'ethbtc.ob-inc'] }]);
    const first = server.connections[0] as Connection;
    first.socket.send(JSON.stringify({ 'ethbtc.ob-snap': { asks: [], bids: [], sequence: 1 } }));
    first.socket.send(JSON.stringify({ 'btcusdt.trades': { trades: [] } }));
    await expect
      .poll(() => received, POLL)
      .toEqual([['ethbtc.ob-snap', { asks: [], bids: [], sequence: 1 }]]);

    // The server goes away: the client comes back on its own and asks for both streams again.
    first.socket.terminate();
    await expect.poll(() => server.connections.length, POLL).toBe(2);
    const second = server.connections[1] as Connection;
    await expect
      .poll(() => second.messages, POLL)
      .toEqual([{ event: 'subscribe', streams: ['ethbtc.trades', 'ethbtc.ob-inc'] }]);
    second.socket.send(JSON.stringify({ 'ethbtc.trades': { trades: [{ tid: 7 }] } }));
    await expect.poll(() => received.length, POLL).toBe(2);
    expect(received[1]).toEqual(['ethbtc.trades', { trades: [{ tid: 7 }] }]);

    // A resync (the book after a sequence gap) unsubscribes and subscribes on the live connection.
    client.resubscribe(['ethbtc.ob-inc']);
    await expect.poll(() => second.messages.length, POLL).toBe(3);
    expect(second.messages.slice(1)).toEqual([
      { event: 'unsubscribe', streams: ['ethbtc.ob-inc'] },
      { event: 'subscribe', streams: ['ethbtc.ob-inc'] },
    ]);

    // The last watcher leaving closes the connection.
    unwatchTrades();
    unwatchBook();
    if (second.socket.readyState !== WsClient.CLOSED) await once(second.socket, 'close');
    expect(second.messages.at(-1)).toEqual({ event: 'unsubscribe', streams: ['ethbtc.ob-inc'] });
  });
});

/** A socket under the test's control: it opens and closes when told to and records what is sent. */
class FakeSocket {
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

describe('ranger client reconnect timing (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function fakeClient() {
    const sockets: FakeSocket[] = [];
    const client = new RangerSocket('private', {
      url: () => 'ws://test/',
      connect: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket as unknown as WebSocket;
      },
    });
    return { client, sockets };
  }

  it(`reconnects ${RECONNECT_MS} ms after a disconnect, then subscribes to every stream`, () => {
    vi.useFakeTimers();
    const { client, sockets } = fakeClient();
    client.watch(['order', 'trade'], () => {});
    client.watch(['balances'], () => {});
    expect(sockets).toHaveLength(1);
    sockets[0]?.open();
    expect(sockets[0]?.sent).toEqual([
      JSON.stringify({ event: 'subscribe', streams: ['order', 'trade', 'balances'] }),
    ]);

    sockets[0]?.drop();
    vi.advanceTimersByTime(RECONNECT_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]?.open();
    expect(sockets[1]?.sent).toEqual([
      JSON.stringify({ event: 'subscribe', streams: ['order', 'trade', 'balances'] }),
    ]);

    // A connection that fails to open is retried the same way.
    sockets[1]?.drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    expect(sockets).toHaveLength(3);
  });

  it('does not reconnect once nothing is watched', () => {
    vi.useFakeTimers();
    const { client, sockets } = fakeClient();
    const unwatch = client.watch(['order'], () => {});
    sockets[0]?.open();
    sockets[0]?.drop();
    unwatch();
    vi.advanceTimersByTime(RECONNECT_MS * 5);
    expect(sockets).toHaveLength(1);
  });

  it('keeps the connection alive with a text ping', () => {
    vi.useFakeTimers();
    const { client, sockets } = fakeClient();
    client.watch(['order'], () => {});
    sockets[0]?.open();
    vi.advanceTimersByTime(20_000);
    expect(sockets[0]?.sent.at(-1)).toBe('ping');
  });
});
