import type pg from 'pg';
import type { Statement } from '../persistence.ts';

/** One batch as it goes into the journal. */
export interface JournalEntry {
  seq: number;
  term: number;
  firstCommand: number;
  commands: number;
  /** When the batch was cut (epoch milliseconds). */
  at: number;
  /** The commands (see codec.ts). */
  body: string;
}

/**
 * The journal write of one batch: ONE statement, so one round trip and its own transaction. It appends the batch
 * and moves `engine_state` to it, fenced by the core's term: the update takes the row's lock, so a core whose term
 * a successor has raised waits for that and then fails (SQLSTATE XC001) instead of appending after the takeover.
 * Both parts must touch one row each, or the batch fails and the core stops.
 */
export function journalStatement(entry: JournalEntry): Statement {
  return {
    text: `with j as (insert into core_journal (seq, term, first_command, commands, at, body)
             values ($1, $2, $3, $4, $5, $6) returning 1),
           s as (update engine_state set batch_seq = $1, next_command = $3 + $4, updated_at = now()
             where id = 1 and core_fence(core_term, $2) returning 1)
           select (select count(*) from j) as n0, (select count(*) from s) as n1`,
    name: 'core_journal_append',
    values: [
      entry.seq,
      entry.term,
      entry.firstCommand,
      entry.commands,
      new Date(entry.at).toISOString(),
      entry.body,
    ],
    counts: [1, 1],
  };
}

/** A journal row as read back. */
export interface JournalRow {
  seq: number;
  term: number;
  firstCommand: number;
  commands: number;
  body: string;
}

/** The journal's batches after `afterSeq` (up to `toSeq` when given), in order. */
export async function readJournal(
  db: pg.Pool | pg.PoolClient,
  afterSeq: number,
  toSeq?: number,
  limit = 100_000,
): Promise<JournalRow[]> {
  const rows = await db.query<{
    seq: string;
    term: string;
    first_command: string;
    commands: number;
    body: string;
  }>(
    `select seq, term, first_command, commands, body from core_journal
     where seq > $1 and ($2::bigint is null or seq <= $2) order by seq limit $3`,
    [afterSeq, toSeq ?? null, limit],
  );
  return rows.rows.map((r) => ({
    seq: Number(r.seq),
    term: Number(r.term),
    firstCommand: Number(r.first_command),
    commands: r.commands,
    body: r.body,
  }));
}
