/** A connected stream client: what it subscribed to and how to send it a frame. */
export interface StreamClient {
  streams: Set<string>;
  send(frame: string): boolean;
  close(): void;
}

/** Gives the frame a client gets on subscribing to `stream`, or undefined when there is none. */
export type SnapshotProvider = (stream: string) => { stream: string; payload: unknown } | undefined;

/** Most frames a client may have queued before it is dropped as too slow. */
export const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * Routes published stream messages to subscribed clients. A message is `{"<stream>": payload}`, serialised once
 * per publish and shared by every recipient.
 */
export class StreamHub {
  private readonly byStream = new Map<string, Set<StreamClient>>();
  private readonly snapshots: SnapshotProvider[] = [];

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
    const frame = JSON.stringify({ [name]: payload });
    let delivered = 0;
    for (const client of set) {
      if (client.send(frame)) delivered++;
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
