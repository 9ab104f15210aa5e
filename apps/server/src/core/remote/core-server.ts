import { type NatsConnection, nanos, RetentionPolicy, StorageType, type Subscription } from 'nats';
import type { Sequencer, Submitted } from '../sequencer.ts';
import {
  BATCH_MAX_AGE_MS,
  BATCH_STREAM,
  BATCH_SUBJECT,
  COMMAND_QUEUE,
  COMMAND_SUBJECT,
  type CommandReply,
  type CommandRequest,
  MAX_BATCH_BYTES,
  MAX_REQUESTS_PER_MESSAGE,
  PROJECTED_SUBJECT,
  type PublishedBatch,
} from './subjects.ts';
import { decodeRequests, encodePublished, encodeReply, slimReply } from './wire.ts';

interface Log {
  warn(message: string): void;
}

/**
 * The list of replies as one message within NATS's size limit: replies that would pass it are sent as
 * "unavailable", and their senders ask again by id (a committed command then answers from `client_commands`).
 */
function encodeReplies(replies: CommandReply[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 2;
  for (const reply of replies) {
    let part = encodeReply(reply);
    if (size + part.length + 1 > MAX_BATCH_BYTES) part = encodeReply({ unavailable: 'answer too large' });
    size += part.length + 1;
    parts.push(part);
  }
  const comma = Buffer.from(',');
  return Buffer.concat([
    Buffer.from('['),
    ...parts.flatMap((part, i) => (i === 0 ? [part] : [comma, part])),
    Buffer.from(']'),
  ]);
}

/** Creates the batch stream when missing (any process may; the definition is the same). */
export async function ensureBatchStream(nc: NatsConnection, replicas = 1): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const config = {
    name: BATCH_STREAM,
    subjects: [BATCH_SUBJECT],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(BATCH_MAX_AGE_MS),
    duplicate_window: nanos(2 * 60 * 1000),
    num_replicas: replicas,
  };
  try {
    await jsm.streams.info(BATCH_STREAM);
  } catch {
    await jsm.streams.add(config);
  }
}

/**
 * Serves the active core over NATS. Commands arrive by request/reply in one queue group and are answered once
 * committed; every committed batch is published, in order, to the JetStream batch stream (its sequence number is
 * the message id, so a repeat is dropped). Only the core that holds the lease runs this.
 */
export class CoreServer {
  private publishing: Promise<void> = Promise.resolve();
  stopped = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly sequencer: Sequencer,
    private readonly subscription: Subscription,
    private readonly log: Log,
  ) {}

  /** Starts serving commands and publishing batches. */
  static async start(nc: NatsConnection, sequencer: Sequencer, log: Log): Promise<CoreServer> {
    await ensureBatchStream(nc);
    const subscription = nc.subscribe(COMMAND_SUBJECT, { queue: COMMAND_QUEUE });
    const server = new CoreServer(nc, sequencer, subscription, log);
    sequencer.onCommitted((batch) =>
      server.publish({
        seq: batch.seq,
        term: sequencer.coreTerm,
        commands: [],
        ...(batch.body === undefined ? {} : { body: batch.body }),
      }),
    );
    // Readers on api processes wait for the tables (ProjectionWatch): each projector write is announced.
    sequencer.onProjector((projector) =>
      projector.onProgress((seq) => {
        if (!server.stopped && !nc.isClosed()) nc.publish(PROJECTED_SUBJECT, String(seq));
      }),
    );
    sequencer.onRecovered(({ seq, missed }) => {
      if (missed) server.publish({ seq, term: sequencer.coreTerm, commands: [], resync: true });
    });
    void server.serve();
    return server;
  }

  /** Stops taking commands (those under way are still answered). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.subscription.unsubscribe();
    // Once the server has the unsubscription, no new command is routed here.
    await this.nc.flush().catch(() => {});
    await this.publishing;
  }

  private async serve(): Promise<void> {
    for await (const message of this.subscription) {
      let requests: CommandRequest[];
      try {
        requests = decodeRequests(message.data);
      } catch {
        message.respond(encodeReply({ unavailable: 'unreadable command' } satisfies CommandReply));
        continue;
      }
      // A list from one sender: its commands join the same batch, and one message answers them all.
      void Promise.all(requests.slice(0, MAX_REQUESTS_PER_MESSAGE).map((r) => this.answer(r))).then(
        (replies) => message.respond(encodeReplies(replies)),
      );
    }
  }

  private answer(request: CommandRequest): Promise<CommandReply> {
    return this.sequencer
      .submit(request.command as Submitted, request.ref, {
        firstSend: request.fresh === true,
        ...(request.ack === 'journal' ? { ack: 'journal' as const } : {}),
      })
      .then(slimReply, (err: Error): CommandReply => ({ unavailable: err.message }));
  }

  private publish(batch: PublishedBatch): void {
    const js = this.nc.jetstream();
    this.publishing = this.publishing.then(async () => {
      if (this.nc.isClosed()) return;
      try {
        let data = encodePublished(batch);
        if (data.length > MAX_BATCH_BYTES) data = encodePublished({ ...batch, resync: true });
        const msgID = batch.resync ? `resync:${batch.term}:${batch.seq}` : String(batch.seq);
        await js.publish(BATCH_SUBJECT, data, { msgID });
      } catch (err) {
        // The gateways see the gap in the sequence and resync from the database.
        if (!this.stopped) this.log.warn(`core: publishing batch ${batch.seq} failed: ${String(err)}`);
      }
    });
  }
}
