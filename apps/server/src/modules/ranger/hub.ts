/** A connected stream client: what it subscribed to and how to send it a frame (UTF-8 JSON text). */
export interface StreamClient {
  streams: Set<string>;
  send(frame: string | Buffer): boolean;
  /**
   * Writes one or more complete websocket text frames (header and payload, built once for every recipient)
   * straight to the connection in one write (optional; without it each message goes through `send`).
   */
  sendFrame?(frames: Buffer): boolean;
  close(): void;
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
 * framed once per publish and shared by every recipient.
 *
 * Frames published inside `batch` (a committed batch of the core) are held back and flushed together: each
 * client gets everything since the last flush in one write (one system call), and clients that get the same
 * frames share one joined buffer. A flush starts at once when the previous one ended at least `flushGapMs` ago,
 * else that long after it: frames of batches committed in quick succession then share a write, and between two
 * fan-outs to thousands of clients the event loop has time for commits and HTTP. A lone batch is not delayed.
 */
export class StreamHub {
  private readonly byStream = new Map<string, Set<StreamClient>>();
  private readonly snapshots: SnapshotProvider[] = [];
  /** Inside `batch`: publishing holds frames back. */
  private batching = false;
  /** Messages held back for the next flush, in publishing order, each with its frame. */
  private held: { message: Buffer; frame: Buffer }[] = [];
  /** Clients waiting for the next flush, with the positions in `held` of what each gets. */
  private pending = new Map<StreamClient, number[]>();
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlushEnd = 0;
  /** Clients closed for not keeping up, since start (a metric). */
  dropped = 0;
  /** Every open connection, subscribed to something or not. */
  private readonly open = new Set<StreamClient>();

  constructor(private readonly flushGapMs = 10) {}

  /** A connection opened (it is counted until {@link remove}). */
  attach(client: StreamClient): void {
    this.open.add(client);
  }

  /** Open websocket connections, subscribed or not (a metric). */
  connectionCount(): number {
    return this.open.size;
  }

  /** Clients subscribed to at least one stream (counted when asked: a metric, not a hot path). */
  subscribedCount(): number {
    const clients = new Set<StreamClient>();
    for (const set of this.byStream.values()) for (const client of set) clients.add(client);
    return clients.size;
  }

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
    const wait = Math.max(0, this.lastFlushEnd + this.flushGapMs - performance.now());
    this.flushTimer = setTimeout(() => this.flush(), wait);
    this.flushTimer.unref();
  }

  /** Sends every held-back frame: one write per waiting client. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const { held, pending } = this;
    this.held = [];
    this.pending = new Map();
    const joined = new Map<string, Buffer>();
    for (const [client, positions] of pending) {
      let sent: boolean;
      if (client.sendFrame) {
        const key = positions.join();
        let frames = joined.get(key);
        if (!frames) {
          frames = Buffer.concat(positions.map((i) => (held[i] as { frame: Buffer }).frame));
          joined.set(key, frames);
        }
        sent = client.sendFrame(frames);
      } else sent = positions.every((i) => client.send((held[i] as { message: Buffer }).message));
      if (!sent) this.drop(client);
    }
    this.lastFlushEnd = performance.now();
  }

  /** Closes a client that cannot keep up (or is gone) and forgets its subscriptions. */
  private drop(client: StreamClient): void {
    this.dropped++;
    this.remove(client);
    client.close();
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
    this.open.delete(client);
    this.unsubscribe(client, [...client.streams]);
  }

  /**
   * Sends `payload` on `stream` to every subscriber, as `{"<name>": payload}` (`name` defaults to the stream; a
   * private stream is routed per user but named plainly). A client that cannot keep up is closed. Answers how
   * many clients it was sent to, or, inside `batch`, how many it is held for.
   */
  publish(stream: string, payload: unknown, name: string = stream): number {
    const set = this.byStream.get(stream);
    if (!set) return 0;
    const message = Buffer.from(JSON.stringify({ [name]: payload }));
    const frame = textFrame(message);
    if (this.batching) {
      const position = this.held.push({ message, frame }) - 1;
      for (const client of set) {
        const positions = this.pending.get(client);
        if (positions) positions.push(position);
        else this.pending.set(client, [position]);
      }
      return set.size;
    }
    let delivered = 0;
    for (const client of set) {
      if (client.sendFrame ? client.sendFrame(frame) : client.send(message)) delivered++;
      else this.drop(client);
    }
    return delivered;
  }

  subscriberCount(stream: string): number {
    return this.byStream.get(stream)?.size ?? 0;
  }
}
