import {
  formatUnits,
  SOLVENCY_TIERS,
  type SolvencyCurrencyEntity,
  type SolvencyNetworkEntity,
  type SolvencyReportEntity,
  type SolvencyTier,
} from '@exchange/shared';
import type pg from 'pg';
import { withReadSnapshot } from '../../db/pool.ts';
import { csvField } from '../admin/ledger.ts';
import type { Network } from '../wallet/chains.ts';
import { type CurrencyLiabilities, liabilitiesByCurrency, liabilitiesEntity } from './liabilities.ts';
import { latestSnapshot } from './snapshots.ts';
import { databaseNow, ourAddresses } from './solvency-repository.ts';

/** Balance reads in flight at once, over all networks: a node is not flooded by a wallet of many addresses. */
export const BALANCE_CONCURRENCY = 8;

/** Our addresses on one network, by tier, as the database lists them. */
interface NetworkAddresses {
  deposit: string[];
  hot: string | null;
  cold: string | null;
}

/** Holdings of each currency of one network, per tier (integer units), or why they could not be read. */
type NetworkHoldings = Map<string, Record<SolvencyTier, bigint>> | { error: string };

/**
 * The proof-of-solvency report: per currency, what we hold on chain (every deposit address, hot wallet and cold
 * address of every network carrying it, read from the chains themselves, never from our own records) against what
 * customers are owed (liabilities.ts). Fiat is not on a chain (it sits at the bank): it is listed with its
 * liabilities and `on_chain` null. A coin no network of `networks` carries, or whose chain could not be read, is
 * likewise not checked (`solvent` null, with a note).
 *
 * The ledger is read first, in one snapshot, then the chains: a deposit arriving meanwhile only adds to the
 * holdings; a withdrawal broadcast meanwhile is still owed (its hold is settled later), so a race errs on the safe
 * side.
 */
export async function solvencyReport(
  db: pg.Pool,
  networks: readonly Network[],
  concurrency = BALANCE_CONCURRENCY,
): Promise<SolvencyReportEntity> {
  const { liabilities, at } = await readLedger(db);
  const addresses = await readAddresses(
    db,
    networks.map((n) => n.key),
  );
  const holdings = await readHoldings(networks, addresses, concurrency);
  const currencies = liabilities.map((l) => currencyEntity(l, networks, holdings));
  return { currencies, at, snapshot: await latestSnapshot(db) };
}

function readLedger(db: pg.Pool): Promise<{ liabilities: CurrencyLiabilities[]; at: string }> {
  return withReadSnapshot(db, async (client) => {
    const liabilities = await liabilitiesByCurrency(client);
    const at = await databaseNow(client);
    return { liabilities, at: at.toISOString() };
  });
}

/**
 * Every deposit address ever handed out on the networks (legacy ones included: they keep receiving until swept),
 * the hot wallet and the cold address.
 */
async function readAddresses(db: pg.Pool, keys: string[]): Promise<Map<string, NetworkAddresses>> {
  const out = new Map<string, NetworkAddresses>(keys.map((k) => [k, { deposit: [], hot: null, cold: null }]));
  const { deposit, hot, cold } = await ourAddresses(db, keys);
  for (const r of deposit) out.get(r.blockchain_key)?.deposit.push(r.address);
  for (const r of hot) {
    const n = out.get(r.blockchain_key);
    if (n) n.hot = r.address;
  }
  for (const r of cold) {
    const n = out.get(r.blockchain_key);
    if (n) n.cold = r.address;
  }
  return out;
}

/** Reads every (address, currency) balance, at most `concurrency` at a time; a failing network is reported. */
async function readHoldings(
  networks: readonly Network[],
  addresses: Map<string, NetworkAddresses>,
  concurrency: number,
): Promise<Map<string, NetworkHoldings>> {
  const sums = new Map<string, Map<string, Record<SolvencyTier, bigint>>>();
  const errors = new Map<string, string>();
  const reads: (() => Promise<void>)[] = [];
  for (const network of networks) {
    const own = addresses.get(network.key) ?? { deposit: [], hot: null, cold: null };
    const perCurrency = new Map<string, Record<SolvencyTier, bigint>>();
    sums.set(network.key, perCurrency);
    const tiers: [SolvencyTier, string][] = [
      ...own.deposit.map((a): [SolvencyTier, string] => ['deposit', a]),
      ...(own.hot ? [['hot', own.hot] as [SolvencyTier, string]] : []),
      ...(own.cold ? [['cold', own.cold] as [SolvencyTier, string]] : []),
    ];
    for (const currency of network.currencies.keys()) {
      const sum = { deposit: 0n, hot: 0n, cold: 0n };
      perCurrency.set(currency, sum);
      for (const [tier, address] of tiers)
        reads.push(async () => {
          if (errors.has(network.key)) return;
          try {
            // Awaited first: `sum[tier] += await …` would read the sum before the await and lose the reads
            // that finish meanwhile.
            const amount = await network.chain.balance(address, currency);
            sum[tier] += amount;
          } catch (err) {
            errors.set(network.key, err instanceof Error ? err.message : String(err));
          }
        });
    }
  }
  await runLimited(reads, concurrency);
  const out = new Map<string, NetworkHoldings>();
  for (const [key, perCurrency] of sums) {
    const error = errors.get(key);
    out.set(key, error === undefined ? perCurrency : { error });
  }
  return out;
}

/** Runs `tasks` with at most `limit` running at once; resolves when all have finished. */
export async function runLimited(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++] as () => Promise<void>;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
}

function currencyEntity(
  l: CurrencyLiabilities,
  networks: readonly Network[],
  holdings: Map<string, NetworkHoldings>,
): SolvencyCurrencyEntity {
  const f = (v: bigint) => formatUnits(v, l.precision);
  const unchecked = (note: string, byNetwork: SolvencyNetworkEntity[] = []): SolvencyCurrencyEntity => ({
    currency: l.currency,
    type: l.type,
    on_chain: null,
    by_tier: null,
    by_network: byNetwork,
    liabilities: liabilitiesEntity(l),
    surplus: null,
    solvent: null,
    note,
  });
  if (l.type === 'fiat') return unchecked('fiat: held at the bank, not on a chain');
  const carrying = networks.filter((n) => n.currencies.has(l.currency));
  if (carrying.length === 0) return unchecked('no network carrying it is served by this process');
  const total: Record<SolvencyTier, bigint> = { deposit: 0n, hot: 0n, cold: 0n };
  const byNetwork: SolvencyNetworkEntity[] = [];
  const failed: string[] = [];
  for (const network of carrying) {
    const held = holdings.get(network.key);
    if (!held || !(held instanceof Map)) {
      const error = held && !(held instanceof Map) ? held.error : 'not read';
      failed.push(`${network.key}: ${error}`);
      byNetwork.push({ network: network.key, deposit: '0', hot: '0', cold: '0', total: '0', error });
      continue;
    }
    const sum = held.get(l.currency) ?? { deposit: 0n, hot: 0n, cold: 0n };
    for (const tier of SOLVENCY_TIERS) total[tier] += sum[tier];
    byNetwork.push({
      network: network.key,
      deposit: f(sum.deposit),
      hot: f(sum.hot),
      cold: f(sum.cold),
      total: f(sum.deposit + sum.hot + sum.cold),
      error: null,
    });
  }
  if (failed.length > 0) return unchecked(`chain not readable: ${failed.join('; ')}`, byNetwork);
  const onChain = total.deposit + total.hot + total.cold;
  return {
    currency: l.currency,
    type: l.type,
    on_chain: f(onChain),
    by_tier: { deposit: f(total.deposit), hot: f(total.hot), cold: f(total.cold) },
    by_network: byNetwork,
    liabilities: liabilitiesEntity(l),
    surplus: f(onChain - l.total),
    solvent: onChain >= l.total,
    note: null,
  };
}

/** The columns of the solvency CSV, in order (one row per currency; `by_network` is in the JSON only). */
export const SOLVENCY_CSV_COLUMNS = [
  'currency',
  'type',
  'on_chain',
  'deposit',
  'hot',
  'cold',
  'liabilities',
  'available',
  'orders',
  'withdrawals',
  'card',
  'surplus',
  'solvent',
  'note',
] as const;

/** The report as CSV with a header line, CRLF line ends (RFC 4180); an unchecked value is an empty field. */
export function solvencyCsv(report: SolvencyReportEntity): string {
  const lines: string[] = [SOLVENCY_CSV_COLUMNS.join(',')];
  for (const c of report.currencies) {
    const row: Record<(typeof SOLVENCY_CSV_COLUMNS)[number], string> = {
      currency: c.currency,
      type: c.type,
      on_chain: c.on_chain ?? '',
      deposit: c.by_tier?.deposit ?? '',
      hot: c.by_tier?.hot ?? '',
      cold: c.by_tier?.cold ?? '',
      liabilities: c.liabilities.total,
      available: c.liabilities.available,
      orders: c.liabilities.orders,
      withdrawals: c.liabilities.withdrawals,
      card: c.liabilities.card,
      surplus: c.surplus ?? '',
      solvent: c.solvent === null ? '' : String(c.solvent),
      note: c.note ?? '',
    };
    lines.push(SOLVENCY_CSV_COLUMNS.map((k) => csvField(row[k])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** One line of the audit's solvency check, and whether it fails the audit. */
export interface SolvencyCheckLine {
  currency: string;
  ok: boolean;
  text: string;
}

/**
 * The solvency part of `npm run audit`: a line per currency. It fails for a coin whose holdings were read and fall
 * short of its liabilities, and for a coin whose chain could not be read while customers are owed some (nothing
 * proves it is covered). Fiat, and a coin no network of this process carries, are listed as not checked.
 */
export function solvencyCheck(report: SolvencyReportEntity): SolvencyCheckLine[] {
  return report.currencies.map((c) => {
    const owed = c.liabilities.total;
    if (c.solvent === true)
      return {
        currency: c.currency,
        ok: true,
        text: `${c.currency}: solvent: on chain ${c.on_chain} ≥ owed ${owed} (surplus ${c.surplus})`,
      };
    if (c.solvent === false)
      return {
        currency: c.currency,
        ok: false,
        text: `${c.currency}: INSOLVENT: on chain ${c.on_chain} < owed ${owed} (short ${c.surplus})`,
      };
    const unreadable = c.by_network.some((n) => n.error !== null) && owed !== '0';
    return {
      currency: c.currency,
      ok: !unreadable,
      text: `${c.currency}: ${unreadable ? 'UNCHECKED' : 'not checked'}: owed ${owed} (${c.note ?? 'no holdings read'})`,
    };
  });
}
