import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { z } from 'zod';
import { verifyRequest } from './auth.ts';
import { signBitcoin } from './bitcoin.ts';
import type { SignerConfig } from './config.ts';
import { signEvm } from './evm.ts';
import type { SignerKeys } from './keys.ts';
import { PolicyRefusal, SigningPolicy } from './policy.ts';
import { carriedOn } from './repository.ts';
import { signTron } from './tron.ts';

/** A signing request is small (a PSBT of a sweep of many inputs is the largest): anything bigger is refused. */
const MAX_BODY_BYTES = 1024 * 1024;

const scheme = z.object({
  purpose: z.union([z.literal(44), z.literal(84)]),
  coinType: z.number().int().min(0),
});
const walletKey = z.object({
  account: z.union([z.literal(0), z.literal(1)]),
  index: z.number().int().min(0).max(0x7fffffff),
  address: z.string().min(1).max(100),
});
const purpose = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('withdrawal'), withdrawalId: z.number().int().positive() }),
  z.object({ kind: z.literal('sweep') }),
  z.object({ kind: z.literal('gas'), depositIndex: z.number().int().min(0).max(0x7fffffff) }),
  z.object({ kind: z.literal('cold') }),
]);
const common = {
  network: z.string().min(1).max(64),
  scheme,
  nativeCurrency: z.string().min(1).max(16),
  purpose,
};
const bitcoinRequest = z.object({
  ...common,
  psbt: z.string().min(1),
  keys: z.array(walletKey).min(1).max(500),
});
const tronRequest = z.object({
  ...common,
  transaction: z.object({
    txID: z.string().regex(/^[0-9a-f]{64}$/i),
    raw_data_hex: z.string().regex(/^[0-9a-f]+$/i),
  }),
  key: walletKey,
});
const evmRequest = z.object({
  ...common,
  transaction: z.object({
    to: z.string(),
    value: z.string().regex(/^\d+$/),
    data: z.string().regex(/^0x([0-9a-f]{2})*$/i),
    nonce: z.number().int().min(0),
    gasLimit: z.string().regex(/^\d+$/),
    maxFeePerGas: z.string().regex(/^\d+$/),
    maxPriorityFeePerGas: z.string().regex(/^\d+$/),
    chainId: z.string().regex(/^\d+$/),
  }),
  key: walletKey,
});

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/**
 * The signer's HTTP interface. Every route but the health check needs a fresh HMAC of the request under the
 * shared token; a refusal answers 403 with its `signer.*` code and is in `signer_log`.
 */
export async function serveSigner(
  config: SignerConfig,
  db: pg.Pool,
  keys: SignerKeys,
  log: { info(m: string): void; warn(m: string): void },
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const policy = new SigningPolicy(db, config);
  const native = async (network: string, currency: string) => {
    if (!(await carriedOn(db, network, currency))) throw new PolicyRefusal('signer.network.unknown');
  };
  const routes: Record<string, (body: unknown) => Promise<unknown>> = {
    '/v1/bitcoin/sign': async (body) => {
      const request = bitcoinRequest.parse(body);
      await native(request.network, 'btc');
      return signBitcoin(keys, policy, request);
    },
    '/v1/tron/sign': async (body) => {
      const request = tronRequest.parse(body);
      await native(request.network, request.nativeCurrency);
      return signTron(db, keys, policy, request);
    },
    '/v1/evm/sign': async (body) => {
      const request = evmRequest.parse(body);
      await native(request.network, request.nativeCurrency);
      return signEvm(db, keys, policy, config.evmChainIds, request);
    },
    '/v1/xpubs': async () => ({ xpubs: keys.xpubs() }),
  };

  const handle = async (request: IncomingMessage) => {
    const url = new URL(request.url ?? '/', 'http://signer');
    if (request.method === 'GET' && url.pathname === '/v1/health') return { ok: true };
    const route = routes[url.pathname];
    if (!route || request.method !== 'POST') throw new HttpError(404, 'signer.route.not_found');
    const body = await readBody(request);
    if (!verifyRequest(config.token, request.headers, 'POST', url.pathname, body)) {
      log.warn(
        `signer: refused a request to ${url.pathname} from ${request.socket.remoteAddress}: bad credentials`,
      );
      throw new HttpError(401, 'signer.auth.invalid');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new HttpError(400, 'signer.request.invalid');
    }
    return route(parsed);
  };

  const server = createServer((request, response) => {
    handle(request).then(
      (result) => reply(response, 200, result),
      (err: unknown) => {
        if (err instanceof HttpError) return reply(response, err.status, { errors: [err.code] });
        if (err instanceof PolicyRefusal) {
          log.warn(`signer: refused: ${err.code}`);
          return reply(response, 403, { errors: [err.code] });
        }
        if (err instanceof z.ZodError) return reply(response, 400, { errors: ['signer.request.invalid'] });
        log.warn(`signer: ${err instanceof Error ? err.message : String(err)}`);
        return reply(response, 500, { errors: ['signer.internal_error'] });
      },
    );
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** The body as text, refused past the limit before it is all read. */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject(new HttpError(413, 'signer.request.too_large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        request.destroy();
        reject(new HttpError(413, 'signer.request.too_large'));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
