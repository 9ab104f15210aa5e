import { toUnits } from '@exchange/shared';
import type { ChainPort } from '../../src/adapters/chains/port.ts';
import type { Network } from '../../src/modules/wallet/chains.ts';

/**
 * Fake chains for the solvency tests: they answer balances only (all the report reads) from `onChain`
 * (`address/currency` → units, 0 for any other address), and count the reads and how many were in flight at once.
 */
export function fakeChains() {
  const onChain = new Map<string, bigint>();
  const reads = { count: 0, inFlight: 0, maxInFlight: 0 };
  const chain = (key: string): ChainPort => {
    const unused = () => {
      throw new Error('not used by the solvency report');
    };
    return {
      key,
      keyScheme: { purpose: 44, coinType: 60, nativeCurrency: 'eth' },
      addressOf: unused,
      latestBlock: unused,
      block: unused,
      normalizeAddress: unused,
      async balance(address, currency) {
        reads.count++;
        reads.maxInFlight = Math.max(reads.maxInFlight, ++reads.inFlight);
        // Let other reads start before this one ends, so the bound on reads in flight is exercised.
        await new Promise((resolve) => setImmediate(resolve));
        reads.inFlight--;
        return onChain.get(`${address}/${currency}`) ?? 0n;
      },
      send: unused,
      sweep: unused,
      sweepFee: unused,
      transaction: unused,
    };
  };
  /** A network of `key` carrying `currencies` (id → precision) on a fake chain. */
  const network = (key: string, currencies: Record<string, number>): Network => ({
    key,
    chain: chain(key),
    dev: null,
    confirmations: 1,
    explorerTransaction: null,
    currencies: new Map(Object.entries(currencies)),
  });
  /** Says `address` holds `amount` (decimal) of `currency`. */
  const hold = (address: string, currency: string, amount: string, precision: number) =>
    onChain.set(`${address}/${currency}`, toUnits(amount, precision));
  return { onChain, reads, network, hold };
}

/** RFC 4180 records: fields split on commas outside quotes, doubled quotes inside quoted fields. */
export function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => {
      const fields: string[] = [];
      let field = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i] as string;
        if (quoted && ch === '"' && line[i + 1] === '"') {
          field += '"';
          i++;
        } else if (ch === '"') quoted = !quoted;
        else if (ch === ',' && !quoted) {
          fields.push(field);
          field = '';
        } else field += ch;
      }
      fields.push(field);
      return fields;
    });
}
