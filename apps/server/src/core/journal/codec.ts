import type { CancelAll, CancelOrder, Command, OrdType, PlaceOrder, TimeInForce } from '@exchange/engine';
import { reviveBigints, stringifyTagged } from '../remote/codec.ts';

/**
 * The journal's form of a batch of commands: JSON text, `[at, command, command, ...]`, where `at` is the batch's
 * time and each command is an array `[tag, at - batchAt, ref, ...fields]` (`ref`, the client command id, or
 * null). The commands of every request path have short forms of their own, with amounts as decimal strings:
 *
 * - `["P", dt, ref, user, market, side, ordType, volume, price, stopPrice]` PlaceOrder (price and stop may be null),
 *   followed by `timeInForce, postOnly` (each may be null: absent) only when the order carries either; an entry
 *   written before these options existed ends at `stopPrice` and decodes as an order without them (gtc, not
 *   post-only);
 * - `["C", dt, ref, user, orderId]` CancelOrder;
 * - `["A", dt, ref, user, market, side]` CancelAll (market and side may be null);
 * - `["X", dt, ref, fields]` any other command: its fields as an object, each bigint as `{"$n":"<decimal>"}`.
 *
 * Decoding gives back exactly the commands that were encoded, so replaying them reproduces the engine's results.
 */
export function encodeBatch(commands: readonly Command[], batchAt: number): string {
  let body = `[${batchAt}`;
  for (const c of commands) body += encodeCommand(c, short(c) ?? 'X', batchAt);
  return `${body}]`;
}

/**
 * The form a command is journalled in (see {@link encodeBatch}): its short form's tag, or `X` (its fields whole).
 * The sequencer finds it once, when it accepts the command ({@link journalForm}), and the batch's encoding trusts it.
 */
export type JournalForm = 'P' | 'C' | 'A' | 'X';

/**
 * {@link encodeBatch} of commands whose forms were found when they were accepted (`form`, from {@link journalForm},
 * never null): their fields are not checked again. The text is the same as encodeBatch's.
 */
export function encodeCheckedBatch(
  items: readonly { command: Command; form: JournalForm }[],
  batchAt: number,
): string {
  let body = `[${batchAt}`;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as { command: Command; form: JournalForm };
    body += encodeCommand(item.command, item.form, batchAt);
  }
  return `${body}]`;
}

/** The commands of a batch written by {@link encodeBatch}, and the batch's time. */
export function decodeBatch(body: string): { at: number; commands: Command[] } {
  return decodeParsedBatch(JSON.parse(body));
}

/** {@link decodeBatch} of a batch already parsed from JSON (one embedded in a larger message). */
export function decodeParsedBatch(parsed: unknown): { at: number; commands: Command[] } {
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'number') throw new JournalFormatError('not a batch');
  const at = parsed[0];
  const commands: Command[] = [];
  for (let i = 1; i < parsed.length; i++) commands.push(decodeCommand(parsed[i], at));
  return { at, commands };
}

/** A journal body that this version cannot read: never skipped, since the state depends on every command. */
export class JournalFormatError extends Error {
  constructor(why: string) {
    super(`unreadable journal entry: ${why}`);
  }
}

/**
 * Why a command cannot be journalled exactly, or null. JSON has no NaN, infinity, function or symbol: such a
 * value would come back as something else, and the replay would differ from what the engine did. The sequencer
 * refuses these before the engine sees them (no caller of ours makes one).
 */
export function unjournalable(c: Command): string | null {
  if (typeof c !== 'object' || c === null) return 'not a command';
  return badValue(c, 0);
}

/**
 * The form `c` is journalled in, or null when it cannot be journalled exactly ({@link unjournalable} says why).
 * One look at each field: a command that fits its short form with plain values (finite numbers, text) is
 * journalable without the walk of {@link unjournalable}; anything else takes the walk. The form is the one
 * {@link encodeBatch} picks for `c`.
 */
export function journalForm(c: Command): JournalForm | null {
  const form = typeof c === 'object' && c !== null ? short(c) : null;
  if (form !== null && plainShort(c as PlaceOrder | CancelOrder | CancelAll)) return form;
  if (unjournalable(c) !== null) return null;
  return form ?? 'X';
}

function badValue(v: unknown, depth: number): string | null {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? null : `the number ${v}`;
    case 'string':
    case 'bigint':
    case 'boolean':
    case 'undefined':
      return null;
    case 'object': {
      if (v === null) return null;
      if (depth > 4) return 'a value nested too deep';
      for (const item of Array.isArray(v) ? v : Object.values(v)) {
        const bad = badValue(item, depth + 1);
        if (bad !== null) return bad;
      }
      return null;
    }
    default:
      return `a ${typeof v}`;
  }
}

/** Text that JSON carries as it is (no quote, backslash or control character): quoted without JSON.stringify. */
const PLAIN = /^[\w .:@+-]*$/;
const str = (v: string | undefined | null) =>
  v === undefined || v === null ? 'null' : PLAIN.test(v) ? `"${v}"` : JSON.stringify(v);
const big = (v: bigint | undefined) => (v === undefined ? 'null' : `"${v}"`);

/**
 * The JSON text of the few strings most commands repeat (markets, sides, order types, time in force), kept once
 * each instead of tested and quoted for every command. Bounded: text a caller invents (a market that does not
 * exist) is quoted as usual once the cache is full.
 */
const quotedNames = new Map<string, string>();
const quotedName = (v: string | undefined | null): string => {
  if (v === undefined || v === null) return 'null';
  let quoted = quotedNames.get(v);
  if (quoted === undefined) {
    quoted = str(v);
    if (quotedNames.size < 256) quotedNames.set(v, quoted);
  }
  return quoted;
};

const isText = (v: unknown) => typeof v === 'string';
const isNumber = (v: unknown) => typeof v === 'number';
const isOptional = (v: unknown, is: (v: unknown) => boolean) => v === undefined || is(v);
const isBig = (v: unknown) => typeof v === 'bigint';
const isBoolean = (v: unknown) => typeof v === 'boolean';

/** The fields each short form carries: a command with any other field goes the generic way, whole. */
const SHORT_FIELDS = {
  PlaceOrder: new Set([
    'type',
    'at',
    'ref',
    'user',
    'market',
    'side',
    'ordType',
    'volume',
    'price',
    'stopPrice',
    'timeInForce',
    'postOnly',
  ]),
  CancelOrder: new Set(['type', 'at', 'ref', 'user', 'orderId']),
  CancelAll: new Set(['type', 'at', 'ref', 'user', 'market', 'side']),
} as const;

/** Only the fields the short form of `c`'s type writes (a field added to a command later is never dropped). */
function onlyShortFields(c: Command): boolean {
  const fields = SHORT_FIELDS[c.type as keyof typeof SHORT_FIELDS];
  for (const key in c) if (!fields.has(key as never)) return false;
  return true;
}

/** The short form fits: every field of the type it is written as (anything else goes the generic way). */
function short(c: Command): 'P' | 'C' | 'A' | null {
  if (c.type !== 'PlaceOrder' && c.type !== 'CancelOrder' && c.type !== 'CancelAll') return null;
  if (!onlyShortFields(c)) return null;
  if (c.type === 'PlaceOrder')
    return isNumber(c.user) &&
      isText(c.market) &&
      isText(c.side) &&
      isText(c.ordType) &&
      isBig(c.volume) &&
      isOptional(c.price, isBig) &&
      isOptional(c.stopPrice, isBig) &&
      isOptional(c.timeInForce, isText) &&
      isOptional(c.postOnly, isBoolean)
      ? 'P'
      : null;
  if (c.type === 'CancelOrder') return isNumber(c.user) && isNumber(c.orderId) ? 'C' : null;
  if (c.type === 'CancelAll')
    return isNumber(c.user) && isOptional(c.market, isText) && isOptional(c.side, isText) ? 'A' : null;
  return null;
}

/**
 * A command that fits a short form holds only plain JSON values when its time and numbers are finite and its
 * client id is text or none (short() checked the type of every other field): nothing JSON would not give back.
 */
function plainShort(c: PlaceOrder | CancelOrder | CancelAll): boolean {
  const ref = c.ref as unknown;
  if (!(ref === undefined || ref === null || typeof ref === 'string')) return false;
  if (!Number.isFinite(c.at) || !Number.isFinite(c.user)) return false;
  return c.type !== 'CancelOrder' || Number.isFinite(c.orderId);
}

/** One command's entry, with the leading comma, written in `form` (which must fit it: see {@link journalForm}). */
function encodeCommand(c: Command, form: JournalForm, batchAt: number): string {
  const dt = c.at - batchAt;
  switch (form) {
    case 'P': {
      const o = c as PlaceOrder;
      const options =
        o.timeInForce === undefined && o.postOnly === undefined
          ? ''
          : `,${quotedName(o.timeInForce)},${o.postOnly === undefined ? 'null' : o.postOnly}`;
      return `,["P",${dt},${str(o.ref)},${o.user},${quotedName(o.market)},${quotedName(o.side)},${quotedName(o.ordType)},${big(o.volume)},${big(o.price)},${big(o.stopPrice)}${options}]`;
    }
    case 'C':
      return `,["C",${dt},${str(c.ref)},${(c as CancelOrder).user},${(c as CancelOrder).orderId}]`;
    case 'A': {
      const a = c as CancelAll;
      return `,["A",${dt},${str(a.ref)},${a.user},${quotedName(a.market)},${quotedName(a.side)}]`;
    }
    default: {
      const { at: _at, ref: _ref, ...fields } = c;
      return `,["X",${dt},${str(c.ref)},${stringifyTagged(fields)}]`;
    }
  }
}

function decodeCommand(raw: unknown, batchAt: number): Command {
  if (!Array.isArray(raw) || typeof raw[1] !== 'number') throw new JournalFormatError('not a command');
  const at = batchAt + raw[1];
  const ref = raw[2] === null ? undefined : text(raw[2]);
  const withRef = <C extends Command>(c: C): C => (ref === undefined ? c : { ...c, ref });
  switch (raw[0]) {
    case 'P': {
      const c: PlaceOrder = {
        type: 'PlaceOrder',
        at,
        user: num(raw[3]),
        market: text(raw[4]),
        side: text(raw[5]) as PlaceOrder['side'],
        ordType: text(raw[6]) as OrdType,
        volume: bigint(raw[7]),
      };
      if (raw[8] !== null) c.price = bigint(raw[8]);
      if (raw[9] !== null) c.stopPrice = bigint(raw[9]);
      // Absent in entries written before the order options (and when the order has neither).
      if (raw[10] !== undefined && raw[10] !== null) c.timeInForce = text(raw[10]) as TimeInForce;
      if (raw[11] !== undefined && raw[11] !== null) c.postOnly = boolean(raw[11]);
      return withRef(c);
    }
    case 'C':
      return withRef<CancelOrder>({ type: 'CancelOrder', at, user: num(raw[3]), orderId: num(raw[4]) });
    case 'A': {
      const c: CancelAll = { type: 'CancelAll', at, user: num(raw[3]) };
      if (raw[4] !== null) c.market = text(raw[4]);
      if (raw[5] !== null) c.side = text(raw[5]) as CancelAll['side'];
      return withRef(c);
    }
    case 'X': {
      const fields = reviveBigints(raw[3]);
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
        throw new JournalFormatError('a command without fields');
      return withRef({ ...(fields as Omit<Command, 'at'>), at } as Command);
    }
    default:
      throw new JournalFormatError(`unknown command tag ${String(raw[0])}`);
  }
}

function text(v: unknown): string {
  if (typeof v !== 'string') throw new JournalFormatError('expected text');
  return v;
}

function boolean(v: unknown): boolean {
  if (typeof v !== 'boolean') throw new JournalFormatError('expected true or false');
  return v;
}

function num(v: unknown): number {
  if (typeof v !== 'number') throw new JournalFormatError('expected a number');
  return v;
}

function bigint(v: unknown): bigint {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new JournalFormatError('expected an integer');
  return BigInt(v);
}
