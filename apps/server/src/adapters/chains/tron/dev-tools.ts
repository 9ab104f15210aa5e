/**
 * A client of the TRON simulator's own extensions (`/sim/faucet`, `/sim/mine`, `/sim/reorg`): not part of the
 * java-tron API, so only ever pointed at the simulator (development and tests).
 */
export interface TronDevTools {
  /** Sends `amount` (sun for `trx`, token units for `usdt`) from the simulator's faucet to `address`; the txid. */
  faucet(address: string, currency: 'trx' | 'usdt', amount: bigint): Promise<string>;
  /** Produces `blocks` blocks (default 1); the new height. */
  mine(blocks?: number): Promise<number>;
  /** Replaces the newest `depth` blocks by as many new ones; their transactions go back to the pool if kept. */
  reorg(depth: number, keepTransactions?: boolean): Promise<number>;
}

export function createTronDevTools(options: {
  apiUrl: string;
  apiKey?: string;
  timeoutMs?: number;
}): TronDevTools {
  const base = options.apiUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers['TRON-PRO-API-KEY'] = options.apiKey;

  async function post(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await fetch(base + path, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok || typeof answer.Error === 'string') {
      throw new Error(`${path}: ${String(answer.Error ?? response.status)}`);
    }
    return answer;
  }

  return {
    async faucet(address, currency, amount) {
      return String((await post('/sim/faucet', { address, currency, amount: amount.toString() })).txid);
    },
    async mine(blocks = 1) {
      return Number((await post('/sim/mine', { blocks })).height);
    },
    async reorg(depth, keepTransactions = false) {
      return Number((await post('/sim/reorg', { depth, keep_transactions: keepTransactions })).height);
    },
  };
}
