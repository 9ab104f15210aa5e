import { KLINE_PERIODS } from '../market-data/klines.ts';

/**
 * Stream names a signed-in client may name on `/private`; each is routed to the session's own user only.
 * `gateway.deposit` and `favmarket` are the spec's names (docs/trading.md#stream): the user's deposits, as on
 * `deposit`, and the user's favourite market ids after each change.
 */
export const PRIVATE_STREAM_NAMES: ReadonlySet<string> = new Set([
  'order',
  'trade',
  'balances',
  'deposit_address',
  'deposit',
  'withdraw',
  'gateway.deposit',
  'favmarket',
]);

/** The private streams that carry a user's deposit items: Peatio's `deposit` and the spec's `gateway.deposit`. */
export const DEPOSIT_STREAM_NAMES = ['deposit', 'gateway.deposit'] as const;

/**
 * The hub key of a user's private stream. It contains `:`, which no name a client may send can contain (see
 * `PUBLIC_STREAM`), so the per-user routing key is never reachable by naming it: only `clientStreamKeys` with the
 * session's user id produces it.
 */
export function privateStreamKey(userId: number | string, name: string): string {
  return `user:${userId}:${name}`;
}

const KLINE_SUFFIXES = Object.values(KLINE_PERIODS).join('|');

/** Every public stream: `global.tickers` and the per-market book, trades, update and candle streams. */
const PUBLIC_STREAM = new RegExp(
  `^(?:global\\.tickers|[a-z0-9]{1,32}\\.(?:trades|ob-snap|ob-inc|update|kline-(?:${KLINE_SUFFIXES})))$`,
);

/** A stream the hub carries for a client, with the name the client knows it by. */
export interface ClientStream {
  key: string;
  name: string;
}

/** Longest piece of a refused name echoed back in an error frame. */
const MAX_ECHOED_NAME = 64;

/** What became of the names a client sent: the streams it gets, and the names it does not, by reason. */
export interface RoutedStreams {
  streams: ClientStream[];
  /** Names that are no stream at all (a non-string shows as its JSON, every name cut at 64 characters). */
  unknown: string[];
  /** Private stream names sent on `/public`, where there is no user to route them to. */
  privateOnly: string[];
}

/**
 * Maps the names a client sent (query string or subscribe message) to hub keys. Public names pass only when
 * they are one of the public streams, exactly as spelt; private names map to the user's own key, and only
 * when there is a signed-in user (the `/private` endpoint). Anything else is refused, whatever its spelling,
 * and listed so that the client is told (an unknown stream is never silently dropped).
 */
export function routeStreams(names: readonly unknown[], userId?: string): RoutedStreams {
  const routed: RoutedStreams = { streams: [], unknown: [], privateOnly: [] };
  for (const name of names) {
    if (typeof name !== 'string') routed.unknown.push(echo(JSON.stringify(name) ?? String(name)));
    else if (PRIVATE_STREAM_NAMES.has(name)) {
      if (userId !== undefined) routed.streams.push({ key: privateStreamKey(userId, name), name });
      else routed.privateOnly.push(name);
    } else if (PUBLIC_STREAM.test(name)) routed.streams.push({ key: name, name });
    else routed.unknown.push(echo(name));
  }
  return routed;
}

/** The streams of {@link routeStreams}, without the refusals. */
export function clientStreamKeys(names: readonly unknown[], userId?: string): ClientStream[] {
  return routeStreams(names, userId).streams;
}

const echo = (name: string) => name.slice(0, MAX_ECHOED_NAME);

/**
 * The stream names of a connection's query string, as Ranger reads them: every `stream` parameter (a string,
 * or a list when repeated), each split at commas, so `stream=a,b` names a and b; empty pieces are dropped.
 * At most `max` names are kept however many parameters or commas the query has, so the query string asks for
 * no more streams than a subscribe message may. The names still go through `clientStreamKeys`, one by one.
 */
export function queryStreamNames(raw: unknown, max: number): string[] {
  const names: string[] = [];
  for (const value of Array.isArray(raw) ? raw : [raw]) {
    if (names.length >= max) break;
    // `stream[x]=` parses to an object: not a name.
    if (typeof value !== 'string') continue;
    for (const name of value.split(',', max - names.length)) if (name !== '') names.push(name);
  }
  return names;
}

/** The name a client knows a hub key by: a private key shows its plain name. */
export function clientStreamName(key: string): string {
  return key.startsWith('user:') ? key.slice(key.lastIndexOf(':') + 1) : key;
}
