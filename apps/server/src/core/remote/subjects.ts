/** Commands for the active core: request/reply in one queue group, so exactly one core answers each. */
export const COMMAND_SUBJECT = 'exchange.core.commands';
export const COMMAND_QUEUE = 'exchange-core';

/** Committed batches, published by the active core after each commit, kept in a JetStream stream. */
export const BATCH_STREAM = 'EXCHANGE_BATCHES';
export const BATCH_SUBJECT = 'exchange.batches';

/** How long the stream keeps batches: enough for a gateway that restarts to catch up, or to resync. */
export const BATCH_MAX_AGE_MS = 60 * 60 * 1000;

/** The active core announces here each batch number its projector has written to the tables (plain NATS). */
export const PROJECTED_SUBJECT = 'exchange.core.projected';

/** A command as it travels to the core: the client command id makes a retry safe. */
export interface CommandRequest {
  command: unknown;
  ref: string;
  /** The first send of an id the sender made up itself: it cannot have been committed before. */
  fresh?: boolean;
  /** Answer once the command is in the journal, before the tables hold it (see `Acknowledgement`). */
  ack?: 'journal';
}

/** The core's answer: the result once committed, or why it could not take the command (retry elsewhere). */
export type CommandReply = { result: unknown } | { unavailable: string };

/**
 * Commands sent in one message at most. A message carries one {@link CommandRequest} or a list of them, and the
 * core answers a list with the list of their replies, in order.
 */
export const MAX_REQUESTS_PER_MESSAGE = 500;

/**
 * A committed batch on the stream: its commands as the core applied them (with their time). The engine is
 * deterministic, so a replica that applies them in order to the same state gets the same results. `resync`
 * when batches were committed that were never published (replicas reload from the database).
 */
export interface PublishedBatch {
  seq: number;
  term: number;
  commands: unknown[];
  /** The commands as the journal holds them (see wire.ts): sent instead of `commands`. */
  body?: string;
  resync?: boolean;
}

/** NATS refuses larger messages by default; a bigger batch is replaced by a resync. */
export const MAX_BATCH_BYTES = 1_000_000;
