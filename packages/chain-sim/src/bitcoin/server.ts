import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { stringifyJson } from './codec.ts';
import { parseJson } from './json.ts';
import { mine } from './method-kit.ts';
import { METHODS } from './methods.ts';
import { Params, RpcError } from './params.ts';
import { BitcoinStore } from './store.ts';
import { RPC } from './validate.ts';

export interface BitcoinSimulatorOptions {
  pool: pg.Pool;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** A block every `blockMs` milliseconds; 0 (default) mines only on demand. */
  blockMs?: number;
  rpcUser: string;
  rpcPassword: string;
  /** Which simulated chain in the tables (several can share a database). Default `regtest`. */
  chainKey?: string;
  /** As Core's -txindex (default false): getrawtransaction then finds confirmed transactions without a block hash. */
  txindex?: boolean;
}

export interface BitcoinSimulator {
  /** `http://user:password@host:port/`, as Core clients take it. */
  url: string;
  /** The same without credentials. */
  endpoint: string;
  /** Mines `blocks` blocks (coinbase to OP_TRUE); resolves with the new height. */
  mine(blocks?: number): Promise<number>;
  stop(): Promise<void>;
}

/** Requests larger than this are refused (Core limits the body too). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Starts a Bitcoin Core JSON-RPC simulator (regtest) over HTTP: Basic authentication, JSON-RPC 1.0 and 2.0
 * requests and batches answered as Core answers them (HTTP 200/404/500 for 1.0, always 200 for 2.0, 204 for 2.0
 * notifications), state in PostgreSQL.
 */
export async function startBitcoinSimulator(options: BitcoinSimulatorOptions): Promise<BitcoinSimulator> {
  const store = new BitcoinStore(options.pool, options.chainKey ?? 'regtest');
  const ctx = { store, txindex: options.txindex ?? false };
  await store.requireTip();
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${options.rpcUser}:${options.rpcPassword}`).toString('base64')}`,
  );

  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="jsonrpc"' }).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('JSONRPC server handles only POST requests');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    let body: unknown;
    try {
      body = parseJson(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(res, 500, { result: null, error: { code: RPC.PARSE_ERROR, message: 'Parse error' }, id: null });
      return;
    }
    if (Array.isArray(body)) {
      const replies = [];
      for (const request of body) {
        const reply = await call(request);
        if (reply.body !== undefined) replies.push(reply.body);
      }
      send(res, 200, replies);
      return;
    }
    const reply = await call(body);
    if (reply.body === undefined) res.writeHead(204).end();
    else send(res, reply.status, reply.body);
  }

  /** One request: its reply body (undefined for a 2.0 notification) and the HTTP status of a lone request. */
  async function call(request: unknown): Promise<{ status: number; body?: unknown }> {
    const object =
      request && typeof request === 'object' && !Array.isArray(request)
        ? (request as Record<string, unknown>)
        : null;
    const id = object && 'id' in object ? object.id : null;
    const v2 = object?.jsonrpc === '2.0';
    const notification = v2 && object !== null && !('id' in object);
    try {
      if (!object) throw new RpcError(RPC.INVALID_REQUEST, 'Invalid Request object');
      if (typeof object.method !== 'string')
        throw new RpcError(RPC.INVALID_REQUEST, 'Method must be a string');
      const params = object.params ?? [];
      if (typeof params !== 'object' || params === null)
        throw new RpcError(RPC.INVALID_REQUEST, 'Params must be an array or object');
      const method = METHODS[object.method];
      if (!method || !Object.hasOwn(METHODS, object.method))
        throw new RpcError(RPC.METHOD_NOT_FOUND, 'Method not found');
      const result = await method.run(ctx, new Params(object.method, method.names, method.required, params));
      if (notification) return { status: 204 };
      return {
        status: 200,
        body: v2
          ? { jsonrpc: '2.0', result: result ?? null, id }
          : { result: result ?? null, error: null, id },
      };
    } catch (thrown) {
      const error =
        thrown instanceof RpcError
          ? { code: thrown.code, message: thrown.message }
          : { code: RPC.MISC_ERROR, message: thrown instanceof Error ? thrown.message : String(thrown) };
      if (notification) return { status: 204 };
      if (v2) return { status: 200, body: { jsonrpc: '2.0', error, id } };
      const status =
        error.code === RPC.INVALID_REQUEST ? 400 : error.code === RPC.METHOD_NOT_FOUND ? 404 : 500;
      return { status, body: { result: null, error, id } };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const endpoint = `http://${host}:${address.port}/`;
  const credentials = `${encodeURIComponent(options.rpcUser)}:${encodeURIComponent(options.rpcPassword)}`;

  const mineBlocks = async (blocks = 1): Promise<number> =>
    store.locked(async (q) => {
      await mine(store, q, blocks, Uint8Array.of(0x51));
      return (await store.tip(q))?.height ?? 0;
    });

  let timer: NodeJS.Timeout | null = null;
  if (options.blockMs && options.blockMs > 0) {
    const interval = options.blockMs;
    const tick = () => {
      timer = setTimeout(() => {
        // A failed block (database briefly away) is retried at the next tick.
        void mineBlocks(1)
          .catch(() => {})
          .finally(() => timer && tick());
      }, interval);
    };
    tick();
  }

  return {
    url: `http://${credentials}@${host}:${address.port}/`,
    endpoint,
    mine: mineBlocks,
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(`${stringifyJson(body)}\n`);
}
