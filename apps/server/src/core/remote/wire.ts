import type { Command, CommandResult } from '@exchange/engine';
import { decodeParsedBatch, encodeBatch, JournalFormatError } from '../journal/codec.ts';
import type { Acknowledgement, Submitted } from '../sequencer.ts';
import { reviveBigints, stringifyTagged } from './codec.ts';
import type { CommandReply, CommandRequest, PublishedBatch } from './subjects.ts';

/**
 * The messages between an api or worker process and the active core, and the core's batch stream, in the
 * journal's compact form for commands (see journal/codec.ts): a command travels as the journal writes it, so the
 * core sends a committed batch's journal text as it is, and neither side walks the commands for bigints.
 */

/** A request message: each command's client id, first-send flag and answer, then the commands. */
export function encodeRequests(requests: CommandRequest[]): Uint8Array {
  const meta = requests.map((r) => [r.ref, r.fresh ? 1 : 0, r.ack === 'journal' ? 1 : 0]);
  const commands = requests.map((r) => ({ ...(r.command as Submitted), at: 0 }) as Command);
  return Buffer.from(`{"m":${JSON.stringify(meta)},"c":${encodeBatch(commands, 0)}}`);
}

/** The requests of a message made by {@link encodeRequests}. */
export function decodeRequests(data: Uint8Array): CommandRequest[] {
  const parsed = JSON.parse(Buffer.from(data).toString('utf8')) as { m?: unknown; c?: unknown };
  if (!Array.isArray(parsed.m)) throw new JournalFormatError('not a request message');
  const { commands } = decodeParsedBatch(parsed.c);
  if (commands.length !== parsed.m.length)
    throw new JournalFormatError('commands and their ids differ in number');
  return parsed.m.map((entry, i) => {
    const [ref, fresh, ack] = entry as [unknown, unknown, unknown];
    if (typeof ref !== 'string') throw new JournalFormatError('a request without its client id');
    const { at: _at, ...command } = commands[i] as Command;
    return { command, ref, fresh: fresh === 1, ...(ack === 1 ? { ack: 'journal' as Acknowledgement } : {}) };
  }) as CommandRequest[];
}

/**
 * An answer as it travels back: what callers read of a result (its outcome, the orders it touched, a swap's
 * outcome, why an order was cancelled as it was placed, the batch), without its trades and balances (the api's
 * replica has those from the stream) or its postings (the core's own).
 */
export function slimReply(result: CommandResult & { seq?: number }): CommandReply {
  return {
    result: {
      ...result,
      postings: [],
      events: result.events.filter((e) => e.type === 'OrderCancelled' || e.type === 'OrderRejected'),
    },
  };
}

/** A list of answers as one message (bigints tagged, as codec.ts does). */
export function encodeReply(reply: CommandReply | CommandReply[]): Uint8Array {
  return Buffer.from(stringifyTagged(reply));
}

/** A published batch: its number, term and journal text, embedded as it is. */
export function encodePublished(batch: {
  seq: number;
  term: number;
  body?: string;
  resync?: boolean;
}): Uint8Array {
  if (batch.resync || batch.body === undefined)
    return Buffer.from(stringifyTagged({ seq: batch.seq, term: batch.term, commands: [], resync: true }));
  return Buffer.from(`{"seq":${batch.seq},"term":${batch.term},"body":${batch.body}}`);
}

/** A published batch with its commands. */
export function decodePublished(data: Uint8Array): PublishedBatch {
  const parsed = JSON.parse(Buffer.from(data).toString('utf8')) as PublishedBatch & { body?: unknown };
  if (parsed.body !== undefined) {
    const { commands } = decodeParsedBatch(parsed.body);
    return { seq: parsed.seq, term: parsed.term, commands };
  }
  return reviveBigints(parsed) as PublishedBatch;
}
