import { randomUUID } from 'node:crypto';
import type { Command } from '@exchange/engine';
import type { NatsConnection } from 'nats';
import { DatabaseUnavailableError } from '../../db/errors.ts';
import { unjournalable } from '../journal/codec.ts';
import type { Acknowledgement, CommittedResult, Submitted } from '../sequencer.ts';
import { decode } from './codec.ts';
import {
  COMMAND_SUBJECT,
  type CommandReply,
  type CommandRequest,
  MAX_REQUESTS_PER_MESSAGE,
} from './subjects.ts';
import { encodeRequests } from './wire.ts';

/** How long one request waits for the core's answer before it is sent again (same id, so at most once). */
const REQUEST_TIMEOUT_MS = 2_000;
/** How long a command is retried (same client command id) while no core answers: a failover. */
const RETRY_FOR_MS = 15_000;
const RETRY_PAUSE_MS = 100;

interface Waiting {
  request: CommandRequest;
  resolve(result: CommittedResult): void;
  reject(err: Error): void;
  deadline: number;
  last: string;
  /** Answered already (the NATS connection went while it waited): never sent again. */
  settled?: boolean;
}

/**
 * The exchange core as an api or worker process sees it: commands go to the active core over NATS
 * request/reply. Every command carries a client command id (the caller's, or a fresh one), so a command whose
 * answer was lost in a failover is sent again with the same id and applied at most once. While no core answers
 * for {@link RETRY_FOR_MS}, it fails as "unavailable" (503 at the edge). While this process has lost its NATS
 * connection, commands fail at once instead (503, retry), and so do those that were waiting when it went.
 *
 * Commands submitted in the same turn of the event loop travel together, as one message with one answer: under
 * load the round trip to the core is paid once per batch, not once per order.
 */
export class RemoteSequencer {
  private outgoing: Waiting[] = [];
  private scheduled = false;
  /** Every command not yet answered, so that a lost connection answers them all at once. */
  private readonly unanswered = new Set<Waiting>();
  private connected = true;

  constructor(
    private readonly nc: NatsConnection,
    private readonly retryForMs = RETRY_FOR_MS,
  ) {
    void this.watchConnection();
  }

  /** True while the NATS connection is up; whether a core answers shows per command. */
  get available(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  /** Submits a command and resolves with its committed result (see `Acknowledgement` for `ack`). */
  submit(command: Submitted, ref?: string, ack?: Acknowledgement): Promise<CommittedResult> {
    if (!this.available) return Promise.reject(this.unavailable('no connection to NATS'));
    // As the core's own sequencer does: what the journal cannot hold exactly never leaves this process.
    const unwritable = unjournalable({ ...command, at: 0 } as Command);
    if (unwritable) return Promise.reject(new Error(`refused before the engine: ${unwritable}`));
    const request: CommandRequest = {
      command,
      ref: ref ?? `auto:${randomUUID()}`,
      fresh: ref === undefined,
      ...(ack === 'journal' ? { ack } : {}),
    };
    return new Promise((resolve, reject) => {
      this.queue({
        request,
        resolve,
        reject,
        deadline: Date.now() + this.retryForMs,
        last: 'no exchange core answered',
      });
    });
  }

  /**
   * Follows the connection: while NATS is unreachable nothing can reach a core, so waiting out the failover
   * allowance (RETRY_FOR_MS) would only hold callers. A command that was in flight may still have been committed:
   * a retry with the same client command id gets its outcome.
   */
  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        for (const waiting of this.unanswered)
          this.settle(waiting, this.unavailable('connection to NATS lost'));
      } else if (status.type === 'reconnect') {
        this.connected = true;
      }
    }
  }

  private unavailable(why: string): Error {
    return new DatabaseUnavailableError(`exchange core unavailable: ${why}`);
  }

  /** Answers a command once: with its result, or with the error. */
  private settle(waiting: Waiting, outcome: { result: CommittedResult } | Error): void {
    if (waiting.settled) return;
    waiting.settled = true;
    this.unanswered.delete(waiting);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome.result);
  }

  private queue(waiting: Waiting): void {
    if (waiting.settled) return;
    this.unanswered.add(waiting);
    this.outgoing.push(waiting);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const all = this.outgoing.filter((w) => !w.settled);
      this.outgoing = [];
      for (let i = 0; i < all.length; i += MAX_REQUESTS_PER_MESSAGE)
        void this.send(all.slice(i, i + MAX_REQUESTS_PER_MESSAGE));
    });
  }

  private async send(batch: Waiting[]): Promise<void> {
    let replies: CommandReply[] | undefined;
    let failure = '';
    try {
      const message = await this.nc.request(COMMAND_SUBJECT, encodeRequests(batch.map((w) => w.request)), {
        timeout: REQUEST_TIMEOUT_MS,
      });
      const decoded = decode<CommandReply | CommandReply[]>(message.data);
      replies = Array.isArray(decoded) ? decoded : batch.map(() => decoded);
    } catch (err) {
      // No responders (no active core yet) or a timeout (the core died under the request): try again.
      failure = err instanceof Error ? err.message : String(err);
    }
    for (const [i, waiting] of batch.entries()) {
      const reply = replies?.[i];
      if (reply && 'result' in reply) {
        this.settle(waiting, { result: reply.result as CommittedResult });
        continue;
      }
      waiting.last = reply ? reply.unavailable : failure;
      this.retry(waiting);
    }
  }

  private retry(waiting: Waiting): void {
    if (waiting.settled) return;
    if (!this.available || Date.now() >= waiting.deadline) {
      this.settle(waiting, this.unavailable(waiting.last));
      return;
    }
    // Sent again: the first send may have been committed, so the core looks the id up.
    waiting.request = { ...waiting.request, fresh: false };
    setTimeout(() => this.queue(waiting), RETRY_PAUSE_MS);
  }
}
