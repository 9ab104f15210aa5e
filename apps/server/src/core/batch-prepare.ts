import type { Command, CommandResult, Engine } from '@exchange/engine';
import { encodeCheckedBatch, type JournalForm, unjournalable } from './journal/codec.ts';
import { journalStatement } from './journal/journal.ts';
import { changesMarkets, followMarkets, unstorableMarketCommand } from './market-rows.ts';
import type { Statement, Units } from './persistence.ts';
import { type JournalBatch, projectionStatements } from './projection.ts';
import type { Acknowledgement, CommittedResult } from './sequencer-types.ts';

/** A command waiting in the sequencer's queue, with its caller's answer. */
export interface Pending {
  command: Command;
  /** How the journal writes it, found when it was accepted ({@link journalForm}). */
  form: JournalForm;
  ref: string | undefined;
  ack: Acknowledgement;
  /** The time to stamp instead of the batch's (a dated history being replayed). */
  at: number | undefined;
  resolve(result: CommittedResult): void;
  reject(err: Error): void;
}

/** A batch applied to the engine, with its journal entry and the statements that write it. */
export interface PreparedBatch {
  seq: number;
  batch: Pending[];
  journal: JournalBatch;
  statements: Statement[];
}

/** Where a batch goes: its number, its first command's number and the core's term that fences it. */
export interface BatchPosition {
  seq: number;
  firstCommand: number;
  term: number;
}

/**
 * Applies `batch` to the engine in order, each command stamped with `at` (or its own dated time), and encodes the
 * batch's journal entry: one statement, or with `writeThrough` the journal then the batch's effects on the tables
 * in the same transaction (the projector then has nothing to do).
 */
export function prepareBatch(
  engine: Engine,
  units: Units,
  batch: Pending[],
  position: BatchPosition,
  at: number,
  writeThrough: boolean,
): PreparedBatch {
  const { seq, firstCommand, term } = position;
  const results: CommandResult[] = [];
  const commands: Command[] = [];
  for (let i = 0; i < batch.length; i++) {
    const pending = batch[i] as Pending;
    const command = pending.command;
    command.at = pending.at ?? at;
    const result = engine.apply(command);
    results.push(result);
    commands.push(command);
    // A market added or changed here is known before the next command's rows are formatted.
    if (changesMarkets(command)) followMarkets(units, result);
  }
  const body = encodeCheckedBatch(batch, at);
  const journal: JournalBatch = { seq, firstCommand, commands, results, body };
  const statements: Statement[] = [
    journalStatement({ seq, term, firstCommand, commands: batch.length, at, body }),
  ];
  if (writeThrough)
    statements.push(...projectionStatements(units, [journal], { from: seq - 1, to: seq, term }));
  return { seq, batch, journal, statements };
}

/**
 * Why a command must not reach the engine, or null: a market change the tables cannot store, or a command the
 * journal cannot hold exactly (`form`, its {@link journalForm}, is null; the api processes of a split deployment
 * check the same before sending).
 */
export function refusedBeforeEngine(stamped: Command, form: JournalForm | null): string | null {
  const why =
    (changesMarkets(stamped) ? unstorableMarketCommand(stamped) : null) ??
    (form === null ? (unjournalable(stamped) ?? 'not journalable') : null);
  return why ? `refused before the engine: ${why}` : null;
}
