import type { NatsConnection } from 'nats';
import type { StreamHub } from './hub.ts';

/** What publishes to websocket streams: the hub itself, or in a split deployment the NATS forwarder. */
export interface StreamPublisher {
  publish(stream: string, payload: unknown, name?: string): unknown;
}

/** Stream messages made outside the batch stream (the wallet's deposit, withdrawal and address events). */
const FORWARDED_SUBJECT = 'exchange.streams.forwarded';

interface Forwarded {
  stream: string;
  payload: unknown;
  name?: string;
}

/**
 * In a split deployment the wallet runs in the worker and api processes while its users' websockets are on the
 * ws processes: its stream messages go over NATS, and every ws process hands them to its own hub. (Market data
 * is not forwarded: each ws process derives it from the committed batches.)
 */
export function forwardingPublisher(nats: NatsConnection): StreamPublisher {
  return {
    publish(stream, payload, name) {
      nats.publish(FORWARDED_SUBJECT, JSON.stringify({ stream, payload, name } satisfies Forwarded));
    },
  };
}

/** A ws process's side: forwarded messages reach this hub's subscribers. */
export function receiveForwarded(nats: NatsConnection, hub: StreamHub): void {
  const subscription = nats.subscribe(FORWARDED_SUBJECT);
  void (async () => {
    for await (const message of subscription) {
      try {
        const { stream, payload, name } = JSON.parse(message.string()) as Forwarded;
        if (typeof stream === 'string') hub.publish(stream, payload, name ?? stream);
      } catch {
        // A malformed message is dropped; nothing else sends on this subject.
      }
    }
  })();
}
