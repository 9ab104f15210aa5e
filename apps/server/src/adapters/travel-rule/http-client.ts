import type { TravelRuleAnswer, TravelRulePort, TravelRuleTransfer } from './port.ts';

/**
 * The travel-rule port over HTTP: `POST {baseUrl}/transfers` with the transfer as JSON; 200 `{status:"accepted",
 * reference}` or `{status:"refused", reason}`. No answer within `timeoutMs`, a network error or any other reply
 * is `unreachable` (the withdrawal then waits for review rather than leave without its data being received).
 */
export function httpTravelRule(options: { baseUrl: () => string | null; timeoutMs: number }): TravelRulePort {
  return {
    async send(transfer: TravelRuleTransfer): Promise<TravelRuleAnswer> {
      const base = options.baseUrl();
      if (!base) return { outcome: 'unreachable', detail: 'no address for the travel-rule service' };
      try {
        const response = await fetch(`${base}/transfers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(transfer),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const body = (await response.json().catch(() => null)) as {
          status?: unknown;
          reference?: unknown;
          reason?: unknown;
        } | null;
        if (response.ok && body?.status === 'accepted' && typeof body.reference === 'string')
          return { outcome: 'accepted', reference: body.reference };
        if (response.ok && body?.status === 'refused')
          return { outcome: 'refused', reason: typeof body.reason === 'string' ? body.reason : 'refused' };
        return { outcome: 'unreachable', detail: `HTTP ${response.status}` };
      } catch (err) {
        return { outcome: 'unreachable', detail: err instanceof Error ? err.name : 'error' };
      }
    },
  };
}
