/**
 * Runs autocannon in its own process (so the load generator does not share the server's event loop) and prints
 * the result as JSON. API-key mode signs every request with a fresh nonce, spread over several keys.
 */
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';

interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
  apiKeys?: { kid: string; secret: string }[];
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const lastNonce = new Map<string, number>();
let turn = 0;

const result = await autocannon({
  url: spec.url,
  method: spec.method,
  connections: spec.connections,
  duration: spec.duration,
  headers: spec.headers,
  body: spec.body,
  requests: spec.apiKeys
    ? [
        {
          setupRequest: (request) => {
            const keys = spec.apiKeys ?? [];
            const key = keys[turn++ % keys.length] as { kid: string; secret: string };
            const nonce = Math.max(Date.now(), (lastNonce.get(key.kid) ?? 0) + 1);
            lastNonce.set(key.kid, nonce);
            const signature = createHmac('sha256', key.secret).update(`${nonce}${key.kid}`).digest('hex');
            request.headers = {
              ...request.headers,
              'x-auth-apikey': key.kid,
              'x-auth-nonce': String(nonce),
              'x-auth-signature': signature,
            };
            return request;
          },
        },
      ]
    : undefined,
});

process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    total: result.requests.total,
    statusCodes: result.statusCodeStats,
  }),
);
