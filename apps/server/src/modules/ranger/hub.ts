/** A connected stream client: what it subscribed to and how to send it a frame. */
export interface StreamClient {
  streams: Set<string>;
  send(frame: string): boolean;
  close(): void;
}

/** Most frames a client may have queued before it is dropped as too slow. */
export const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * Routes published stream messages to subscribed clients. A message is `{"<stream>": payload}`, serialised once
 * per publish and shared by every recipient.
 */
export class StreamHub {
  private readonly byStream = new Map<string, Set<StreamClient>>();

  subscribe(client: StreamClient, streams: readonly string[]): void {
    for (const stream of streams) {
      client.streams.add(stream);
      const set = this.byStream.get(stream);
      if (set) set.add(client);
      else this.byStream.set(stream, new Set([client]));
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

  /** Sends `payload` on `stream` to every subscriber; a client that cannot keep up is closed. */
  publish(stream: string, payload: unknown): number {
    const set = this.byStream.get(stream);
    if (!set) return 0;
    const frame = JSON.stringify({ [stream]: payload });
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
