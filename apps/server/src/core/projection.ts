import type { Command, CommandResult, OrderView, Posting, Trade } from '@exchange/engine';
import { formatUnits } from '@exchange/shared';
import { bool, decimal, literals, num, text, time, word } from './array-literals.ts';
import { combine, encodeArrays, insertOrders, insertTrades, updateOrders } from './batch-rows.ts';
import { changesMarkets, marketStatements } from './market-rows.ts';
import type { Statement, Units } from './persistence.ts';

/** A committed batch of the journal with what the engine made of it: the projector's input. */
export interface JournalBatch {
  seq: number;
  /** The sequence number of its first command; the others follow it. */
  firstCommand: number;
  /** The commands as applied (stamped with their time and client command id). */
  commands: Command[];
  results: CommandResult[];
  /** Its text in the journal (see journal/codec.ts). */
  body?: string;
}

/** Where a projection starts and ends, and the term it is written under. */
export interface ProjectionFence {
  /** `core_projection.projected_seq` before: the projection fails unless it is still this. */
  from: number;
  /** The last batch it projects. */
  to: number;
  term: number;
}

/**
 * The table writes of consecutive journal batches, for ONE transaction: orders (each in its final state: new ones
 * inserted, earlier ones updated), trades, users' balances (final values), system-account deltas, the ledger (one
 * row per command, cause and account), withdrawal holds, client command ids, market and fee rows, and
 * `core_projection.projected_seq` moved from `fence.from` to `fence.to` (and only from there, and only by the core
 * that claimed the projection: one written twice, or by a deposed core, fails instead of doubling anything). Pure
 * CPU work.
 */
export function projectionStatements(
  units: Units,
  batches: JournalBatch[],
  fence: ProjectionFence,
): Statement[] {
  const parts: Statement[] = [];
  const orders = new Map<number, OrderView>();
  const opened = new Set<number>();
  const trades: Trade[] = [];
  const balances = new Map<string, { user: number; currency: string; balance: bigint; locked: bigint }>();
  const ledger = new LedgerRows(units);
  const refs: { ref: string; seq: number; result: CommandResult }[] = [];
  for (const batch of batches) {
    for (const [i, result] of batch.results.entries()) {
      const command = batch.commands[i] as Command;
      if (command.ref !== undefined) refs.push({ ref: command.ref, seq: batch.seq, result });
      if (!result.ok) continue;
      for (const o of result.orders) orders.set(o.id, o);
      for (const e of result.events) {
        if (e.type === 'Trade') trades.push(e);
        else if (e.type === 'OrderOpened') opened.add(e.orderId);
        else if (e.type === 'BalanceChanged') balances.set(`${e.user}:${e.currency}`, e);
      }
      ledger.add(batch.seq, batch.firstCommand + i, command, result.postings);
    }
  }
  // Orders opened in these batches are new rows; every other order was written by an earlier projection.
  const fresh: OrderView[] = [];
  const changed: OrderView[] = [];
  for (const o of orders.values()) (opened.has(o.id) ? fresh : changed).push(o);
  if (fresh.length > 0) parts.push(insertOrders(units, fresh));
  if (changed.length > 0) parts.push(updateOrders(units, changed));
  if (trades.length > 0) parts.push(insertTrades(units, trades));
  if (balances.size > 0) parts.push(upsertBalances(units, [...balances.values()]));
  parts.push(...ledger.statements());
  if (refs.length > 0) parts.push(insertClientCommands(refs));
  parts.push({
    text: 'update core_projection set projected_seq = $1 where id = 1 and projected_seq = $2 and term = $3',
    values: [fence.to, fence.from, fence.term],
    rows: 1,
  });
  // The parts touch disjoint rows and become one statement; holds and market changes may touch one row twice
  // (a hold and its release in the same projection), so they follow, in command order.
  const results = batches.flatMap((b) => b.results);
  const commands = batches.flatMap((b) => b.commands);
  const markets = commands.some(changesMarkets) ? marketStatements(results) : [];
  return encodeArrays([...combine(parts), ...holdStatements(units, commands, results), ...markets]);
}

function upsertBalances(
  units: Units,
  rows: { user: number; currency: string; balance: bigint; locked: bigint }[],
): Statement {
  return {
    text: `insert into balances (user_id, currency_id, balance, locked, updated_at)
       select u, c, b, l, now() from unnest($1::bigint[], $2::text[], $3::numeric[], $4::numeric[]) as t(u, c, b, l)
       on conflict (user_id, currency_id) do update set balance = excluded.balance, locked = excluded.locked, updated_at = now()`,
    values: literals(rows, [
      (r) => num(r.user),
      (r) => word(r.currency),
      (r) => decimal(r.balance, units.precision(r.currency)),
      (r) => decimal(r.locked, units.precision(r.currency)),
    ]),
  };
}

function insertClientCommands(refs: { ref: string; seq: number; result: CommandResult }[]): Statement {
  return {
    text: `insert into client_commands (ref, batch_seq, ok, code, order_id)
       select r, s, o, c, i from unnest($1::text[], $2::bigint[], $3::boolean[], $4::text[], $5::bigint[])
         as t(r, s, o, c, i)`,
    values: literals(refs, [
      (r) => text(r.ref),
      (r) => num(r.seq),
      (r) => bool(r.result.ok),
      (r) => word(r.result.code),
      (r) => num(r.result.orderId),
    ]),
  };
}

/**
 * The ledger rows of the projected commands: one row per command, cause and account (a command's postings of one
 * cause on one account and currency, which the engine writes one after the other, are summed), each naming the
 * command (`command_seq`), its cause (`kind`) and what the cause refers to (`ref`: `order:<id>`, `trade:<id>`,
 * else the command's client id), dated with the command's time. The system accounts' totals move by the same
 * amounts.
 */
class LedgerRows {
  private readonly rows: LedgerRow[] = [];
  private readonly system = new Map<string, bigint>();

  constructor(private readonly units: Units) {}

  add(batchSeq: number, commandSeq: number, command: Command, postings: Posting[]): void {
    let last: LedgerRow | undefined;
    for (const p of postings) {
      if (
        last !== undefined &&
        last.account === p.account &&
        last.currency === p.currency &&
        last.kind === p.cause &&
        last.causeId === p.causeId
      )
        last.amount += p.amount;
      else {
        last = {
          batchSeq,
          commandSeq,
          account: p.account,
          currency: p.currency,
          amount: p.amount,
          kind: p.cause,
          causeId: p.causeId,
          ref: causeRef(p, command),
          at: command.at,
        };
        this.rows.push(last);
      }
      if (p.account.charCodeAt(0) !== 117 /* u */) {
        const sys = `${p.account}\n${p.currency}`;
        this.system.set(sys, (this.system.get(sys) ?? 0n) + p.amount);
      }
    }
  }

  statements(): Statement[] {
    const rows = this.rows.filter((r) => r.amount !== 0n);
    const out: Statement[] = [];
    if (rows.length > 0) {
      out.push({
        text: `insert into ledger_postings (batch_seq, command_seq, account, currency_id, amount, kind, ref, created_at)
         select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::numeric[], $6::text[], $7::text[],
           $8::timestamptz[])`,
        values: literals(rows, [
          (r) => num(r.batchSeq),
          (r) => num(r.commandSeq),
          (r) => word(r.account),
          (r) => word(r.currency),
          (r) => decimal(r.amount, this.units.precision(r.currency)),
          (r) => word(r.kind),
          (r) => text(r.ref),
          (r) => time(r.at),
        ]),
      });
    }
    const system = [...this.system.entries()].filter(([, amount]) => amount !== 0n);
    if (system.length > 0) {
      const split = system.map(([key, amount]) => {
        const [account = '', currency = ''] = key.split('\n');
        return { account, currency, amount };
      });
      out.push({
        text: `insert into system_balances (account, currency_id, amount)
         select a, c, x from unnest($1::text[], $2::text[], $3::numeric[]) as t(a, c, x)
         on conflict (account, currency_id) do update set amount = system_balances.amount + excluded.amount`,
        values: literals(split, [
          (r) => word(r.account),
          (r) => word(r.currency),
          (r) => decimal(r.amount, this.units.precision(r.currency)),
        ]),
      });
    }
    return out;
  }
}

interface LedgerRow {
  batchSeq: number;
  commandSeq: number;
  account: string;
  currency: string;
  amount: bigint;
  kind: string;
  causeId: number;
  ref: string | null;
  at: number;
}

/** What a posting's cause refers to: its order or trade, else the command's client id (which names its cause). */
function causeRef(p: Posting, command: Command): string | null {
  if (p.cause === 'order') return `order:${p.causeId}`;
  if ((p.cause === 'trade' || p.cause === 'fee') && p.causeId > 0) return `trade:${p.causeId}`;
  return command.ref ?? null;
}

/** Withdrawal holds the core keeps (so a restart from the tables knows them), in command order. */
function holdStatements(units: Units, commands: Command[], results: CommandResult[]): Statement[] {
  const out: Statement[] = [];
  for (const [i, c] of commands.entries()) {
    if (!results[i]?.ok) continue;
    if (c.type === 'HoldWithdrawal')
      out.push({
        text: 'insert into withdrawal_holds (withdrawal_id, user_id, currency_id, amount) values ($1, $2, $3, $4)',
        values: [c.withdrawalId, c.user, c.currency, formatUnits(c.amount, units.precision(c.currency))],
      });
    else if (c.type === 'SettleWithdrawal' || c.type === 'ReleaseWithdrawal')
      out.push({ text: 'delete from withdrawal_holds where withdrawal_id = $1', values: [c.withdrawalId] });
  }
  return out;
}
