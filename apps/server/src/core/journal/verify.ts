import { type Command, type CommandResult, Engine, type Posting } from '@exchange/engine';
import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import { loadEngineConfig } from '../engine-config.ts';
import { loadEngineState, Units } from '../persistence.ts';
import { applyAll } from '../recovery.ts';
import { decodeBatch } from './codec.ts';
import { readJournal } from './journal.ts';
import { engineFromSnapshot, engineHash, snapshotAt, snapshotIndex } from './snapshots.ts';

/** One comparison of two state hashes at a batch. */
export interface HashCheck {
  seq: number;
  /** The hash stored by the live core (a snapshot) or read from the tables. */
  expected: string;
  /** The hash of the replayed state at that batch. */
  replayed: string;
  ok: boolean;
}

/** What {@link verifyJournal} found. */
export interface VerifyReport {
  /** The snapshot the replay started from (its batch). */
  from: number;
  /** The last batch replayed (the tables' batch when the check began). */
  to: number;
  commands: number;
  /** Every later snapshot the live core stored, against the replay at its batch. */
  snapshots: HashCheck[];
  /** The tables (as of `to`) against the replay. */
  tables: HashCheck;
  /** Commands whose ledger rows differ from the postings the replay made (at most 20 named). */
  ledger: { commands: number; mismatched: string[] };
  ms: number;
  ok: boolean;
}

/** Journal batches replayed per page. */
const PAGE = 2_000;

/**
 * Proves the journal: rebuilds the engine from the first snapshot, replays every journal batch after it, and checks
 * (1) each later snapshot's hash (stored by the live core's projector) against the replayed state at its batch,
 * (2) the tables' state against the replay at the batch they hold, and (3) each replayed command's postings against
 * its ledger rows (per cause, reference, account and currency). Reads the tables in one snapshot of the database;
 * the journal only grows, so the live core keeps working meanwhile. `afterSeq` starts from the newest snapshot at
 * or before it instead of the first (a quicker check of the recent journal, as `npm run audit` runs it).
 */
export async function verifyJournal(db: pg.Pool, options: { afterSeq?: number } = {}): Promise<VerifyReport> {
  const started = performance.now();
  const index = await snapshotIndex(db);
  const start =
    options.afterSeq === undefined
      ? index[0]
      : [...index].reverse().find((s) => s.seq <= (options.afterSeq as number));
  const client = await db.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const units = new Units(new Map(), new Map());
    const { config, markets } = await loadEngineConfig(client);
    units.replace(markets, config.currencies);
    const { state, position } = await loadEngineState(client, units);
    const tablesHash = engineHash(new Engine(config, state)).hash;
    await client.query('commit');
    const to = position.projectedSeq;
    if (!start) {
      // No snapshot yet (the core never started on this journal): nothing to replay from.
      const tables = { seq: to, expected: tablesHash, replayed: tablesHash, ok: true };
      return report({
        from: to,
        to,
        commands: 0,
        snapshots: [],
        tables,
        ledger: { commands: 0, mismatched: [] },
      });
    }
    const snapshot = await snapshotAt(db, start.seq);
    const engine = engineFromSnapshot((snapshot as { state: string }).state);
    const checks: HashCheck[] = [];
    const due = index.filter((s) => s.seq > start.seq && s.seq <= to);
    let seq = start.seq;
    let commands = 0;
    const ledger = { commands: 0, mismatched: [] as string[] };
    while (seq < to) {
      const rows = await readJournal(db, seq, to, PAGE);
      if (rows.length === 0 || rows[0]?.seq !== seq + 1)
        throw new Error(`the journal has no batch ${seq + 1}`);
      const replayed = new Map<number, { command: Command; result: CommandResult }>();
      for (const row of rows) {
        const { commands: batch } = decodeBatch(row.body);
        const results = applyAll(engine, units, batch);
        for (const [i, command] of batch.entries())
          replayed.set(row.firstCommand + i, { command, result: results[i] as CommandResult });
        commands += batch.length;
        seq = row.seq;
        const stored = due.find((s) => s.seq === seq);
        if (stored) {
          const hash = engineHash(engine).hash;
          checks.push({ seq, expected: stored.hash, replayed: hash, ok: hash === stored.hash });
        }
      }
      await compareLedger(db, units, replayed, ledger);
    }
    const replayedHash = engineHash(engine).hash;
    const tables = { seq: to, expected: tablesHash, replayed: replayedHash, ok: tablesHash === replayedHash };
    return report({ from: start.seq, to, commands, snapshots: checks, tables, ledger });
  } finally {
    client.release();
  }

  function report(found: Omit<VerifyReport, 'ms' | 'ok'>): VerifyReport {
    const ok = found.tables.ok && found.snapshots.every((s) => s.ok) && found.ledger.mismatched.length === 0;
    return { ...found, ms: Math.round(performance.now() - started), ok };
  }
}

/** The ledger rows a command's postings make, summed per cause, reference, account and currency (zeros left out). */
function expectedRows(command: Command, postings: Posting[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const p of postings) {
    const ref =
      p.cause === 'order'
        ? `order:${p.causeId}`
        : (p.cause === 'trade' || p.cause === 'fee') && p.causeId > 0
          ? `trade:${p.causeId}`
          : (command.ref ?? '');
    const key = `${p.cause}|${ref}|${p.account}|${p.currency}`;
    sums.set(key, (sums.get(key) ?? 0n) + p.amount);
  }
  return nonZero(sums);
}

function nonZero(sums: Map<string, bigint>): Map<string, bigint> {
  for (const [key, amount] of sums) if (amount === 0n) sums.delete(key);
  return sums;
}

async function compareLedger(
  db: pg.Pool,
  units: Units,
  replayed: Map<number, { command: Command; result: CommandResult }>,
  out: { commands: number; mismatched: string[] },
): Promise<void> {
  const numbers = [...replayed.keys()];
  if (numbers.length === 0) return;
  const rows = await db.query<{
    command_seq: string | null;
    kind: string;
    ref: string;
    account: string;
    currency_id: string;
    amount: string;
  }>(
    `select command_seq, kind, coalesce(ref, '') as ref, account, currency_id, amount::text as amount
     from ledger_postings where command_seq between $1 and $2`,
    [Math.min(...numbers), Math.max(...numbers)],
  );
  // A command may have several rows of one key (a hold and its release): they are summed, as the replay's are.
  const stored = new Map<number, Map<string, bigint>>();
  for (const r of rows.rows) {
    const n = Number(r.command_seq);
    const m = stored.get(n) ?? new Map<string, bigint>();
    stored.set(n, m);
    const key = `${r.kind}|${r.ref}|${r.account}|${r.currency_id}`;
    m.set(key, (m.get(key) ?? 0n) + toUnits(r.amount, units.precision(r.currency_id)));
  }
  for (const [n, { command, result }] of replayed) {
    out.commands++;
    const expected = expectedRows(command, result.ok ? result.postings : []);
    const actual = nonZero(stored.get(n) ?? new Map<string, bigint>());
    const same =
      expected.size === actual.size && [...expected].every(([key, amount]) => actual.get(key) === amount);
    if (!same && out.mismatched.length < 20)
      out.mismatched.push(
        `command ${n} (${command.type}): ledger ${describe(units, actual)}, replay ${describe(units, expected)}`,
      );
  }
}

function describe(units: Units, rows: Map<string, bigint>): string {
  if (rows.size === 0) return 'none';
  return [...rows]
    .map(
      ([key, amount]) =>
        `${key}=${formatUnits(amount, units.precision(key.slice(key.lastIndexOf('|') + 1)))}`,
    )
    .join(', ');
}

/** What a report found wrong, one line each (empty when the journal proved itself). */
export function journalFailures(report: VerifyReport): string[] {
  const out: string[] = [];
  for (const s of report.snapshots.filter((c) => !c.ok))
    out.push(
      `journal: the replay at batch ${s.seq} differs from the snapshot the core stored (${s.replayed} against ${s.expected})`,
    );
  if (!report.tables.ok)
    out.push(
      `journal: the tables at batch ${report.tables.seq} differ from the replay (${report.tables.expected} against ${report.tables.replayed})`,
    );
  for (const m of report.ledger.mismatched) out.push(`journal: ${m}`);
  return out;
}

/** A report as the command line prints it. */
export function describeReport(report: VerifyReport): string {
  const lines = [
    `replayed ${report.commands} commands of batches ${report.from + 1}..${report.to} from the snapshot after batch ${report.from} in ${report.ms} ms`,
    ...report.snapshots.map(
      (s) =>
        `snapshot after batch ${s.seq}: ${s.ok ? 'same state' : 'DIFFERENT'} (${s.replayed.slice(0, 16)})`,
    ),
    `tables at batch ${report.tables.seq}: ${report.tables.ok ? 'same state as the replay' : 'DIFFERENT from the replay'} (${report.tables.replayed.slice(0, 16)})`,
    `ledger: ${report.ledger.commands} commands' postings checked, ${report.ledger.mismatched.length === 0 ? 'all as replayed' : `${report.ledger.mismatched.length}+ differ`}`,
  ];
  return lines.join('\n');
}
