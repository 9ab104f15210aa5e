import { API } from '@exchange/shared';
import { useEffect, useRef } from 'react';

/** Socket reconnect delay after a disconnect (docs/trading.md#constants). */
export const RECONNECT_MS = 1000;
/** Keep-alive: a text `ping` (answered `pong`) this often. */
const PING_MS = 20_000;
/** `WebSocket.OPEN`, spelled out so the class also runs where there is no global WebSocket (unit tests). */
const OPEN = 1;

/** Receives the payload of a frame `{"<key>": payload}` and the key it came under. */
export type FrameHandler = (payload: unknown, key: string) => void;

/** How a socket is made and where it connects; tests pass their own (a `ws` client, a local server). */
export interface RangerOptions {
  /** The endpoint's URL; by default on the page's host. */
  url?: () => string;
  /** Opens a socket with the browser's WebSocket API; by default `new WebSocket(url)`. */
  connect?: (url: string) => WebSocket;
}

interface Watcher {
  keys: Set<string>;
  handler: FrameHandler;
}

/**
 * One Ranger websocket (docs/platform.md#wire-contract): subscriptions are counted per stream, frames go to the watchers of their
 * key, a `ping` keeps it alive, and a lost connection comes back after 1000 ms with every stream subscribed again.
 * It connects on the first watcher and closes when the last one leaves.
 */
export class RangerSocket {
  private socket: WebSocket | undefined;
  private readonly counts = new Map<string, number>();
  private readonly watchers = new Set<Watcher>();
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly endpoint: 'public' | 'private',
    private readonly options: RangerOptions = {},
  ) {}

  /**
   * Subscribes to `streams` and calls `handler` for frames under `keys` (the streams themselves by default; e.g.
   * `<m>.ob-snap` arrives for a subscription to `<m>.ob-inc`). Returns the function that undoes it.
   */
  watch(streams: readonly string[], handler: FrameHandler, keys: readonly string[] = streams): () => void {
    const watcher: Watcher = { keys: new Set(keys), handler };
    this.watchers.add(watcher);
    const added = streams.filter((s) => {
      const n = this.counts.get(s) ?? 0;
      this.counts.set(s, n + 1);
      return n === 0;
    });
    this.ensureOpen();
    if (added.length > 0) this.send({ event: 'subscribe', streams: added });
    return () => {
      this.watchers.delete(watcher);
      const removed = streams.filter((s) => {
        const n = (this.counts.get(s) ?? 1) - 1;
        if (n <= 0) this.counts.delete(s);
        else this.counts.set(s, n);
        return n <= 0;
      });
      if (removed.length > 0) this.send({ event: 'unsubscribe', streams: removed });
      if (this.watchers.size === 0) this.close();
    };
  }

  /** Subscribes again to get a fresh snapshot (the order book after a sequence gap). */
  resubscribe(streams: readonly string[]): void {
    this.send({ event: 'unsubscribe', streams });
    this.send({ event: 'subscribe', streams });
  }

  private url(): string {
    if (this.options.url) return this.options.url();
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${window.location.host}${API.ranger}/${this.endpoint}/`;
  }

  private ensureOpen(): void {
    if (this.socket || this.reconnectTimer !== undefined) return;
    const url = this.url();
    const socket = this.options.connect ? this.options.connect(url) : new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      if (this.counts.size > 0) this.send({ event: 'subscribe', streams: [...this.counts.keys()] });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendText('ping'), PING_MS);
    };
    socket.onmessage = (event) => this.dispatch(String(event.data));
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      clearInterval(this.pingTimer);
      if (this.watchers.size === 0) return;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        if (this.watchers.size > 0) this.ensureOpen();
      }, RECONNECT_MS);
    };
  }

  private close(): void {
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.reconnectTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  private dispatch(text: string): void {
    if (text === 'pong') return;
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    for (const [key, payload] of Object.entries(frame)) {
      if (key === 'success' || key === 'error') continue;
      for (const watcher of [...this.watchers]) if (watcher.keys.has(key)) watcher.handler(payload, key);
    }
  }

  private send(message: unknown): void {
    this.sendText(JSON.stringify(message));
  }

  /** Sends when open; streams asked for while connecting are subscribed on open. */
  private sendText(text: string): void {
    if (this.socket?.readyState === OPEN) this.socket.send(text);
  }
}

/** The shared public and private (session cookie) connections. */
export const ranger = {
  public: new RangerSocket('public'),
  private: new RangerSocket('private'),
};

/**
 * Watches streams while the component is mounted (and `streams` is not empty); the latest `handler` is always
 * the one called.
 */
export function useRanger(
  endpoint: 'public' | 'private',
  streams: readonly string[],
  handler: FrameHandler,
  keys?: readonly string[],
): void {
  const latest = useRef(handler);
  latest.current = handler;
  const streamKey = streams.join(',');
  const keyKey = (keys ?? streams).join(',');
  useEffect(() => {
    if (!streamKey) return;
    return ranger[endpoint].watch(
      streamKey.split(','),
      (payload, key) => latest.current(payload, key),
      keyKey.split(','),
    );
  }, [endpoint, streamKey, keyKey]);
}
