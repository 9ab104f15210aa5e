/** A connected stream client: what it subscribed to and how to send it a frame (UTF-8 JSON text). */
export interface StreamClient {
  streams: Set<string>;
  send(frame: string | Buffer): boolean;
  /**
   * Writes a complete websocket text frame (header and payload, built once for every recipient) straight to the
   * connection (optional; without it the message goes through `send`).
   */
  sendFrame?(frame: Buffer): boolean;
  close(): void;
  /** Holds writes back until `uncork`, so several frames leave in one write (optional). */
  cork?(): void;
  uncork?(): void;
}

/**
 * A whole unmasked websocket text frame (RFC 6455 §5.2: FIN and opcode 1, then the payload length in 7, 7+16
 * or 7+64 bits), as a server sends it.
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n <= 0xffff) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  payload.copy(frame, head);
  return frame;
}

/** Gives the frame a client gets on subscribing to `stream`, or undefined when there is none. */
export type SnapshotProvider = (stream: string) => { stream: string; payload: unknown } | undefined;

/** Most frames a client may have queued before it is dropped as too slow. */
export const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * Routes published stream messages to subscribed clients. A message is `{"<stream>": payload}`, serialised and
 * encoded once per publish and shared by every recipient.
 *
 * Frames published inside `batch` (a committed batch of the core) are held back per client and flushed
 * together: one write (one system call) per client for everything since the last flush, instead of one per
 * frame. A flush starts at once when the previous one ended long enough ago: `flushGapMs`, or as long as that
 * flush took, so that fan-out to thousands of clients takes at most about half of the event loop (commits and
 * HTTP go on) and frames of consecutive batches share a write. A lone batch is not delayed at all.
 */
export class StreamHub {
  private readonly byStream = new Map<string, Set<StreamClient>>();
  private readonly snapshots: SnapshotProvider[] = [];
  /** Inside `batch`: clients are corked on their first frame. */
  private batching = false;
  /** Corked clients waiting for the next flush. */
  private pending = new Set<StreamClient>();
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlushEnd = 0;
  private lastFlushMs = 0;

  constructor(private readonly flushGapMs = 10) {}

  /** Publishes everything `work` publishes with each client's frames held back until the next flush. */
  batch(work: () => void): void {
    if (this.batching) {
      work();
      return;
    }
    this.batching = true;
    try {
      work();
    } finally {
      this.batching = false;
      this.scheduleFlush();
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.pending.size === 0) return;
    const gap = Math.max(this.flushGapMs, this.lastFlushMs);
    const wait = Math.max(0, this.lastFlushEnd + gap - performance.now());
    this.flushTimer = setTimeout(() => this.flush(), wait);
    this.flushTimer.unref();
  }

  /** Sends every held-back frame: uncorks each waiting client. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const clients = this.pending;
    this.pending = new Set();
    const t0 = performance.now();
    for (const client of clients) client.uncork?.();
    this.lastFlushEnd = performance.now();
    this.lastFlushMs = this.lastFlushEnd - t0;
  }

  /** Registers what a client receives right after subscribing to a stream (e.g. the order book snapshot). */
  onSubscribe(provider: SnapshotProvider): void {
    this.snapshots.push(provider);
  }

  subscribe(client: StreamClient, streams: readonly string[]): void {
    for (const stream of streams) {
      if (client.streams.has(stream)) continue;
      client.streams.add(stream);
      const set = this.byStream.get(stream);
      if (set) set.add(client);
      else this.byStream.set(stream, new Set([client]));
      for (const provider of this.snapshots) {
        const snapshot = provider(stream);
        if (snapshot) client.send(JSON.stringify({ [snapshot.stream]: snapshot.payload }));
      }
    }
  }

  unsubscribe(client: StreamClient, streams: readonly string[]): void {
    for (const stream of streams) {
      client.streams.delete(stream);
      const set = this.byStream.get(stream);
      set?.delete(client);
      if (set?.size === 0) this.byStream.delete(stream);
    }
  }

  remove(client: StreamClient): void {
    this.unsubscribe(client, [...client.streams]);
  }

  /**
   * Sends `payload` on `stream` to every subscriber, as `{"<name>": payload}` (`name` defaults to the stream; a
   * private stream is routed per user but named plainly). A client that cannot keep up is closed.
   */
  publish(stream: string, payload: unknown, name: string = stream): number {
    const set = this.byStream.get(stream);
    if (!set) return 0;
    const message = Buffer.from(JSON.stringify({ [name]: payload }));
    let frame: Buffer | undefined;
    const hold = this.batching;
    let delivered = 0;
    for (const client of set) {
      if (hold && !this.pending.has(client)) {
        this.pending.add(client);
        client.cork?.();
      }
      let sent: boolean;
      if (client.sendFrame) {
        frame ??= textFrame(message);
        sent = client.sendFrame(frame);
      } else sent = client.send(message);
      if (sent) delivered++;
      else {
        this.remove(client);
        client.close();
      }
    }
    return delivered;
  }

  subscriberCount(stream: string): number {
    return this.byStream.get(stream)?.size ?? 0;
  }
}
