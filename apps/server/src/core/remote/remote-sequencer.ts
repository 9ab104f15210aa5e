import { randomUUID } from 'node:crypto';
import type { CommandResult } from '@exchange/engine';
import type { NatsConnection } from 'nats';
import { DatabaseUnavailableError } from '../../db/errors.ts';
import type { Submitted } from '../sequencer.ts';
import { decode, encode } from './codec.ts';
import {
  COMMAND_SUBJECT,
  type CommandReply,
  type CommandRequest,
  MAX_REQUESTS_PER_MESSAGE,
} from './subjects.ts';

/** How long one request waits for the core's answer before it is sent again (same id, so at most once). */
const REQUEST_TIMEOUT_MS = 2_000;
/** How long a command is retried (same client command id) while no core answers: a failover. */
const RETRY_FOR_MS = 15_000;
const RETRY_PAUSE_MS = 100;

interface Waiting {
  request: CommandRequest;
  resolve(result: CommandResult): void;
  reject(err: Error): void;
  deadline: number;
  last: string;
}

/**
 * The exchange core as an api or worker process sees it: commands go to the active core over NATS
 * request/reply. Every command carries a client command id (the caller's, or a fresh one), so a command whose
 * answer was lost in a failover is sent again with the same id and applied at most once. While no core answers
 * for {@link RETRY_FOR_MS}, it fails as "unavailable" (503 at the edge).
 *
 * Commands submitted in the same turn of the event loop travel together, as one message with one answer: under
 * load the round trip to the core is paid once per batch, not once per order.
 */
export class RemoteSequencer {
  private outgoing: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly retryForMs = RETRY_FOR_MS,
  ) {}

  /** True while the NATS connection is up; whether a core answers shows per command. */
  get available(): boolean {
    return !this.nc.isClosed();
  }

  /** Submits a command and resolves with its committed result. */
  submit(command: Submitted, ref?: string): Promise<CommandResult> {
    const request: CommandRequest = { command, ref: ref ?? `auto:${randomUUID()}`, fresh: ref === undefined };
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

  private queue(waiting: Waiting): void {
    this.outgoing.push(waiting);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const all = this.outgoing;
      this.outgoing = [];
      for (let i = 0; i < all.length; i += MAX_REQUESTS_PER_MESSAGE)
        void this.send(all.slice(i, i + MAX_REQUESTS_PER_MESSAGE));
    });
  }

  private async send(batch: Waiting[]): Promise<void> {
    let replies: CommandReply[] | undefined;
    let failure = '';
    try {
      const message = await this.nc.request(COMMAND_SUBJECT, encode(batch.map((w) => w.request)), {
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
        waiting.resolve(reply.result as CommandResult);
        continue;
      }
      waiting.last = reply ? reply.unavailable : failure;
      this.retry(waiting);
    }
  }

  private retry(waiting: Waiting): void {
    if (Date.now() >= waiting.deadline) {
      waiting.reject(new DatabaseUnavailableError(`exchange core unavailable: ${waiting.last}`));
      return;
    }
    // Sent again: the first send may have been committed, so the core looks the id up.
    waiting.request = { ...waiting.request, fresh: false };
    setTimeout(() => this.queue(waiting), RETRY_PAUSE_MS);
  }
}
