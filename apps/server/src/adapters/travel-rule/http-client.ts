import http from 'node:http';
import https from 'node:https';
import type { TravelRuleAnswer, TravelRulePort, TravelRuleTransfer } from './port.ts';

/** One POST without a kept-alive connection: a slow provider's socket is destroyed with the request. */
function postJson(url: string, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error('TimeoutError')), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', reject);
    request.end(body);
  });
}

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
        const response = await postJson(`${base}/transfers`, JSON.stringify(transfer), options.timeoutMs);
        let body: { status?: unknown; reference?: unknown; reason?: unknown } | null = null;
        try {
          body = JSON.parse(response.text);
        } catch {
          body = null;
        }
        const ok = response.status >= 200 && response.status < 300;
        if (ok && body?.status === 'accepted' && typeof body.reference === 'string')
          return { outcome: 'accepted', reference: body.reference };
        if (ok && body?.status === 'refused')
          return { outcome: 'refused', reason: typeof body.reason === 'string' ? body.reason : 'refused' };
        return { outcome: 'unreachable', detail: `HTTP ${response.status}` };
      } catch (err) {
        return { outcome: 'unreachable', detail: err instanceof Error ? err.message : 'error' };
      }
    },
  };
}
