import http from 'node:http';
import https from 'node:https';
import type { IvmsPayload } from '../../modules/compliance/travel-rule/ivms.ts';
import type {
  IncomingAnswer,
  IncomingTransfer,
  TravelRuleAnswer,
  TravelRulePort,
  TravelRuleTransfer,
} from './port.ts';

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

/** A JSON answer's body, or null when it is none. */
function parsed(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A provider id as the service names it, or null. */
const providerOf = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : null;

/**
 * The travel-rule port over HTTP: `POST {baseUrl}/transfers` with the transfer as JSON; 200 `{status:"accepted",
 * reference}` or `{status:"refused", reason}`. No answer within `timeoutMs`, a network error or any other reply
 * is `unreachable` (the withdrawal then waits for review rather than leave without its data being received).
 * `POST {baseUrl}/incoming` with a deposit (network, txid, address, from, asset, amount): 200 `{status:"record",
 * provider_id, payload}` (the originator record the sending provider delivered) or `{status:"none", provider_id}`
 * (none; `provider_id` the provider the sender's address belongs to, or null).
 */
export function httpTravelRule(options: { baseUrl: () => string | null; timeoutMs: number }): TravelRulePort {
  const post = async (path: string, body: unknown) => {
    const base = options.baseUrl();
    if (!base) throw new Error('no address for the travel-rule service');
    const response = await postJson(`${base}${path}`, JSON.stringify(body), options.timeoutMs);
    return {
      ok: response.status >= 200 && response.status < 300,
      status: response.status,
      body: parsed(response.text),
    };
  };
  const failure = (err: unknown) => ({
    outcome: 'unreachable' as const,
    detail: err instanceof Error ? err.message : 'error',
  });
  return {
    async send(transfer: TravelRuleTransfer): Promise<TravelRuleAnswer> {
      try {
        const { ok, status, body } = await post('/transfers', transfer);
        if (ok && body?.status === 'accepted' && typeof body.reference === 'string')
          return { outcome: 'accepted', reference: body.reference };
        if (ok && body?.status === 'refused')
          return { outcome: 'refused', reason: typeof body.reason === 'string' ? body.reason : 'refused' };
        return { outcome: 'unreachable', detail: `HTTP ${status}` };
      } catch (err) {
        return failure(err);
      }
    },
    async incoming(transfer: IncomingTransfer): Promise<IncomingAnswer> {
      try {
        const { ok, status, body } = await post('/incoming', transfer);
        const payload = body?.payload;
        if (ok && body?.status === 'record' && payload !== null && typeof payload === 'object')
          return {
            outcome: 'record',
            providerId: providerOf(body.provider_id),
            payload: payload as IvmsPayload,
          };
        if (ok && body?.status === 'none')
          return { outcome: 'none', providerId: providerOf(body.provider_id) };
        return { outcome: 'unreachable', detail: `HTTP ${status}` };
      } catch (err) {
        return failure(err);
      }
    },
  };
}
