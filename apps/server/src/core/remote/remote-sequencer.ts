import { randomUUID } from 'node:crypto';
import type { CommandResult } from '@exchange/engine';
import type { NatsConnection } from 'nats';
import { DatabaseUnavailableError } from '../../db/errors.ts';
import type { Submitted } from '../sequencer.ts';
import { decode, encode } from './codec.ts';
import { COMMAND_SUBJECT, type CommandReply, type CommandRequest } from './subjects.ts';

/** How long one request waits for the core's answer before it is sent again (same id, so at most once). */
const REQUEST_TIMEOUT_MS = 2_000;
/** How long a command is retried (same client command id) while no core answers: a failover. */
const RETRY_FOR_MS = 15_000;
const RETRY_PAUSE_MS = 100;

/**
 * The exchange core as an api or worker process sees it: commands go to the active core over NATS
 * request/reply. Every command carries a client command id (the caller's, or a fresh one), so a command whose
 * answer was lost in a failover is sent again with the same id and applied at most once. While no core answers
 * for {@link RETRY_FOR_MS}, it fails as "unavailable" (503 at the edge).
 */
export class RemoteSequencer {
  constructor(
    private readonly nc: NatsConnection,
    private readonly retryForMs = RETRY_FOR_MS,
  ) {}

  /** True while the NATS connection is up; whether a core answers shows per command. */
  get available(): boolean {
    return !this.nc.isClosed();
  }

  /** Submits a command and resolves with its committed result. */
  async submit(command: Submitted, ref?: string): Promise<CommandResult> {
    const request: CommandRequest = { command, ref: ref ?? `auto:${randomUUID()}`, fresh: ref === undefined };
    let data = encode(request);
    const deadline = Date.now() + this.retryForMs;
    let last = 'no exchange core answered';
    for (;;) {
      try {
        const reply = decode<CommandReply>(
          (await this.nc.request(COMMAND_SUBJECT, data, { timeout: REQUEST_TIMEOUT_MS })).data,
        );
        if ('result' in reply) return reply.result as CommandResult;
        last = reply.unavailable;
      } catch (err) {
        // No responders (no active core yet) or a timeout (the core died under the request): try again.
        last = err instanceof Error ? err.message : String(err);
      }
      if (Date.now() >= deadline) throw new DatabaseUnavailableError(`exchange core unavailable: ${last}`);
      // Sent again: the first send may have been committed, so the core looks the id up.
      if (request.fresh) data = encode({ ...request, fresh: false });
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}
