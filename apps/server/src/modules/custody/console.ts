import {
  type CustodyBalanceEntity,
  type CustodyLimitsEntity,
  type CustodyLimitsInput,
  type CustodyNetworkEntity,
  type CustodyViewEntity,
  custodyLimitsSchemaFor,
  ADMIN_CUSTODY_ERRORS as E,
  formatUnits,
  toUnits,
} from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import type { Staff } from '../admin/access.ts';
import { recordStaffAction } from '../admin/trail.ts';
import { hotWallet } from '../wallet/addresses.ts';
import type { Network } from '../wallet/chains.ts';
import {
  allLimits,
  coldAddresses,
  lockLimits,
  networkCurrency,
  openAlerts,
  recentRefusals,
  recentTransfers,
  resolveAlert,
  saveLimits,
} from './console-repository.ts';

/** A chain's error as the console shows it: its message, cut short. */
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * The console's custody view: each network's hot wallet read from its chain now, against its bounds, with the cold
 * address; the open alerts, recent transfers between our wallets and the signer's refusals. Networks are read in
 * parallel; one whose node fails shows its error and does not hold up the others.
 */
export async function custodyView(db: pg.Pool, networks: readonly Network[]): Promise<CustodyViewEntity> {
  const [cold, limits, alerts, transfers, refusals] = await Promise.all([
    coldAddresses(db),
    allLimits(db),
    openAlerts(db),
    recentTransfers(db),
    recentRefusals(db),
  ]);
  const at = new Date().toISOString();
  const tiers = await Promise.all(
    networks.map((network) => networkTiers(db, network, cold.get(network.key) ?? null, limits)),
  );
  return { at, networks: tiers, alerts, transfers, refusals };
}

async function networkTiers(
  db: pg.Pool,
  network: Network,
  cold: string | null,
  limits: Map<string, CustodyLimitsEntity>,
): Promise<CustodyNetworkEntity> {
  let address: string | null = null;
  let error: string | null = null;
  try {
    address = (await hotWallet(db, network)).address;
  } catch (err) {
    error = errorText(err);
  }
  const currencies = await Promise.all(
    [...network.currencies]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(async ([currency, precision]) => {
        const limit = limits.get(`${network.key}/${currency}`);
        const line = {
          currency,
          precision,
          hot_min: limit?.hot_min ?? null,
          hot_max: limit?.hot_max ?? null,
        };
        if (address === null) return unread(line, error);
        try {
          return standing(line, await network.chain.balance(address, currency));
        } catch (err) {
          return unread(line, errorText(err));
        }
      }),
  );
  return { blockchain_key: network.key, hot_address: address, error, cold_address: cold, currencies };
}

/** The scale of `wallet_limits` (`numeric(36, 18)`). */
const BOUND_SCALE = 18;

type Line = Pick<CustodyBalanceEntity, 'currency' | 'precision' | 'hot_min' | 'hot_max'>;

const unread = (line: Line, error: string | null): CustodyBalanceEntity => ({
  ...line,
  balance: null,
  error,
  state: 'unknown',
  refill: null,
  excess: null,
});

/**
 * Where `balance` stands against the bounds, exactly. Compared at 18 decimals (the column's scale), so a bound
 * stored with more decimals than the currency's precision (by hand in SQL) is still compared, not refused.
 */
function standing(line: Line, balance: bigint): CustodyBalanceEntity {
  const scale = 10n ** BigInt(BOUND_SCALE - line.precision);
  const exact = balance * scale;
  const format = (units: bigint) => formatUnits(units, BOUND_SCALE);
  const result: CustodyBalanceEntity = {
    ...line,
    balance: formatUnits(balance, line.precision),
    error: null,
    state: 'ok',
    refill: null,
    excess: null,
  };
  const min = line.hot_min === null ? null : toUnits(line.hot_min, BOUND_SCALE);
  const max = line.hot_max === null ? null : toUnits(line.hot_max, BOUND_SCALE);
  if (min !== null && exact < min) return { ...result, state: 'low', refill: format(min - exact) };
  if (max !== null && exact > max) return { ...result, state: 'above_max', excess: format(exact - max) };
  return result;
}

/**
 * Sets the hot wallet's bounds of a currency on a network (both null removes them). Refused, changing nothing:
 * an unknown network (404), a currency the network does not carry, a bound with more decimals than the currency's
 * precision (422). The change and its before/after land in the staff trail together.
 */
export async function setCustodyLimits(
  db: pg.Pool,
  staff: Staff,
  input: CustodyLimitsInput,
): Promise<CustodyLimitsEntity | null> {
  const { exists, precision } = await networkCurrency(db, input.blockchain_key, input.currency);
  if (!exists) throw new AppError(404, [E.networkNotFound]);
  if (precision === null) throw new AppError(422, [E.currencyNotOnNetwork]);
  const { hot_min, hot_max } = custodyLimitsSchemaFor(precision).parse(input);
  return withTransaction(db, async (tx) => {
    const before = await lockLimits(tx, input.blockchain_key, input.currency);
    const after = await saveLimits(tx, input.blockchain_key, input.currency, hot_min, hot_max);
    await recordStaffAction(
      tx,
      staff,
      'custody.limits.set',
      `wallet_limit:${input.blockchain_key}:${input.currency}`,
      { before, after },
    );
    return after;
  });
}

/**
 * Marks an open chain alert resolved (404 when there is none with this id), in the trail. A condition that still
 * holds is raised again by the wallet's next pass: a hot wallet still under its minimum alerts anew.
 */
export async function resolveCustodyAlert(db: pg.Pool, staff: Staff, id: number): Promise<void> {
  await withTransaction(db, async (tx) => {
    const alert = await resolveAlert(tx, id);
    if (!alert) throw new AppError(404, [E.alertNotFound]);
    await recordStaffAction(tx, staff, 'custody.alert.resolve', `chain_alert:${id}`, {
      before: alert,
      after: { resolved: true },
    });
  });
}
