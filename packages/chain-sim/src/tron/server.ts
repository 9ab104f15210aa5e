import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type pg from 'pg';
import { bytesToHex, int64, parseAddress, parseJsonExact, stringifyExact, utf8Hex } from './codec.ts';
import { NodeRequestError, TronNode } from './node.ts';
import { visibleForm } from './present.ts';
import { queries } from './queries.ts';
import { type Handler, nodeError, ok, type Reply } from './reply.ts';

type Params = Record<string, unknown>;

import { type RawData, RawDataError, transferContract, triggerContract } from './transaction.ts';

/** Options of {@link startTronSimulator}. */
export interface TronSimulatorOptions {
  pool: pg.Pool;
  /** Interface to bind; 127.0.0.1 by default. */
  host?: string;
  /** Port to bind; 0 (any free port) by default. */
  port?: number;
  /** Block interval in ms (mainnet: 3000); 0 = blocks only on demand (`/sim/mine`). */
  blockMs?: number;
  /** The emulated TRC-20's address (Base58Check or hex), e.g. mainnet USDT `TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`. */
  usdtContract: string;
  /** When set, every request must carry it in the `TRON-PRO-API-KEY` header, as TronGrid wants. */
  apiKey?: string;
  /** Which simulated chain of the database this is (several can share one); `tron-sim` by default. */
  chainKey?: string;
}

/** A running simulator. */
export interface TronSimulator {
  /** Base URL of the HTTP API, e.g. `http://127.0.0.1:41234` (`/wallet/…` and the `/sim/…` extensions). */
  url: string;
  /** The faucet account (Base58Check) that funds `/sim/faucet` transfers. */
  faucetAddress: string;
  /** Produces `blocks` blocks now; returns the new height. */
  mine(blocks?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts a java-tron full-node HTTP API simulator (the `/wallet/*` endpoints a wallet needs, as TronGrid serves
 * them) over PostgreSQL state, with simulator-only extensions under `/sim/`: `faucet`, `mine`, `reorg`.
 */
export async function startTronSimulator(options: TronSimulatorOptions): Promise<TronSimulator> {
  const usdt = parseAddress(options.usdtContract, true) ?? parseAddress(options.usdtContract, false);
  if (!usdt) throw new Error(`not a TRON address: ${options.usdtContract}`);
  const node = new TronNode(options.pool, options.chainKey ?? 'tron-sim', usdt);
  await node.head();
  const handlers: Record<string, Handler> = { ...queries(node), ...builders(node), ...extensions(node) };

  const server = http.createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      send(
        res,
        nodeError('java.lang.RuntimeException', error instanceof Error ? error.message : String(error)),
      );
    });
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (options.apiKey && req.headers['tron-pro-api-key'] !== options.apiKey) {
      // TronGrid's refusal of a request without a valid key (HTTP 401).
      send(res, { status: 401, body: { Success: false, Error: 'ApiKey not exists', StatusCode: 401 } });
      return;
    }
    const handler = handlers[url.pathname];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    let params: Params = Object.fromEntries(url.searchParams);
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text) {
        try {
          const parsed = parseJsonExact(text);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            params = { ...params, ...parsed };
          else throw new Error('not an object');
        } catch (error) {
          send(
            res,
            nodeError('org.tron.json.JSONException', error instanceof Error ? error.message : 'bad JSON'),
          );
          return;
        }
      }
    }
    const visible = params.visible === true || params.visible === 'true';
    send(res, await handler(params, visible));
  }

  function send(res: http.ServerResponse, reply: Reply): void {
    if (res.headersSent) return;
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(stringifyExact(reply.body));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let timer: NodeJS.Timeout | null = null;
  if (options.blockMs && options.blockMs > 0) {
    timer = setInterval(() => {
      void node.mine(1).catch(() => {});
    }, options.blockMs);
  }

  return {
    url: `http://${host}:${address.port}`,
    faucetAddress: visibleForm(node.faucetAddress, true, 'address') as string,
    mine: (blocks = 1) => node.mine(blocks),
    async stop() {
      if (timer) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Hex (41…) form of an address parameter, or null. */
function address(params: Params, key: string, visible: boolean): string | null {
  return parseAddress(params[key], visible);
}

/** The endpoints that build transactions and take them back signed. */
function builders(node: TronNode): Record<string, Handler> {
  const contractError = (message: string) =>
    nodeError('org.tron.core.exception.ContractValidateException', message);
  const present = (tx: object, visible: boolean) => visibleForm({ visible, ...tx }, visible);
  return {
    '/wallet/createtransaction': async (p, visible) => {
      const owner = address(p, 'owner_address', visible);
      if (!owner) return contractError('Invalid ownerAddress!');
      const to = address(p, 'to_address', visible);
      if (!to) return contractError('Invalid toAddress!');
      const amount = int64(p.amount);
      if (amount === null || amount > BigInt(Number.MAX_SAFE_INTEGER)) {
        return nodeError('org.tron.core.services.http.JsonFormat$ParseException', 'amount: not an int64');
      }
      try {
        return ok(present(await node.build(transferContract(owner, to, amount)), visible));
      } catch (error) {
        if (error instanceof NodeRequestError) return nodeError(error.exception, error.message);
        throw error;
      }
    },
    '/wallet/triggersmartcontract': async (p, visible) => {
      const call = smartCall(node, p, visible);
      if ('result' in call) return ok(call);
      const feeLimit = int64(p.fee_limit) ?? 0n;
      const built = await node.build(triggerContract(call.owner, call.contract, call.data), feeLimit);
      return ok({ result: { result: true }, transaction: present(built, visible) });
    },
    '/wallet/triggerconstantcontract': async (p, visible) => {
      const call = smartCall(node, p, visible);
      if ('result' in call) return ok(call);
      const built = await node.build(triggerContract(call.owner, call.contract, call.data));
      const run = await node.constantCall(call.owner, call.data);
      const transaction = present({ ret: [run.reverted ? { ret: 'FAILED' } : {}], ...built }, visible);
      const result = run.reverted
        ? { result: true, message: visible ? 'REVERT opcode executed' : utf8Hex('REVERT opcode executed') }
        : { result: true };
      return ok({ result, energy_used: run.energyUsed, constant_result: [run.output], transaction });
    },
    '/wallet/broadcasttransaction': async (p, visible) => {
      const raw = p.raw_data as RawData | undefined;
      const signatures = p.signature ?? [];
      if (!raw || typeof raw !== 'object' || !Array.isArray(signatures)) {
        return nodeError('java.lang.NullPointerException', 'null');
      }
      let outcome: Awaited<ReturnType<TronNode['broadcast']>>;
      try {
        outcome = await node.broadcast(hexAddresses(raw, visible), signatures.map(String));
      } catch (error) {
        if (error instanceof RawDataError) return nodeError('java.lang.NullPointerException', 'null');
        throw error;
      }
      if (outcome.ok) return ok({ result: true, txid: outcome.txid });
      return ok({
        code: outcome.code,
        txid: outcome.txid,
        message: visible ? outcome.message : utf8Hex(outcome.message),
      });
    },
  };
}

/** The owner, contract and call data of a (constant or not) smart-contract call request, or the node's refusal. */
function smartCall(
  node: TronNode,
  p: Params,
  visible: boolean,
): { owner: string; contract: string; data: string } | { result: { code: string; message: string } } {
  const refuse = (code: string, message: string) => ({
    result: { code, message: visible ? message : utf8Hex(message) },
  });
  const owner = address(p, 'owner_address', visible);
  if (!owner)
    return refuse('OTHER_ERROR', "class java.security.InvalidParameterException : owner_address isn't set.");
  const contract = address(p, 'contract_address', visible);
  if (contract !== node.usdtContract)
    return refuse('CONTRACT_VALIDATE_ERROR', 'No contract or not a valid smart contract');
  let data = typeof p.data === 'string' ? p.data.toLowerCase() : '';
  if (!data && typeof p.function_selector === 'string') {
    const selector = bytesToHex(
      keccak_256(new TextEncoder().encode(p.function_selector.replace(/\s/g, ''))),
    ).slice(0, 8);
    data = selector + (typeof p.parameter === 'string' ? p.parameter.toLowerCase() : '');
  }
  if (!/^([0-9a-f]{2})*$/.test(data))
    return refuse('OTHER_ERROR', 'class org.bouncycastle.util.encoders.DecoderException : bad hex');
  return { owner, contract, data };
}

/** raw_data sent with `visible: true` carries Base58Check addresses: the node reads them back to bytes. */
function hexAddresses(raw: RawData, visible: boolean): RawData {
  if (!visible || !Array.isArray(raw.contract)) return raw;
  const contract = raw.contract.map((c) => {
    const value: Record<string, unknown> = { ...c.parameter?.value };
    for (const key of ['owner_address', 'to_address', 'contract_address']) {
      if (typeof value[key] === 'string') value[key] = parseAddress(value[key], true) ?? value[key];
    }
    return { ...c, parameter: { ...c.parameter, value } };
  });
  return { ...raw, contract };
}

/** Simulator-only controls (not part of java-tron): faucet, mine, reorg. */
function extensions(node: TronNode): Record<string, Handler> {
  const bad = (message: string): Reply => ({ status: 400, body: { Error: message } });
  return {
    '/sim/faucet': async (p) => {
      const to = parseAddress(p.address, true) ?? parseAddress(p.address, false);
      if (!to) return bad('address: not a TRON address');
      if (p.currency !== 'trx' && p.currency !== 'usdt') return bad("currency: 'trx' or 'usdt'");
      const amount = typeof p.amount === 'string' && /^[1-9]\d*$/.test(p.amount) ? BigInt(p.amount) : null;
      if (amount === null) return bad('amount: a positive integer string (sun or token units)');
      return ok({ txid: await node.faucet(to, p.currency, amount) });
    },
    '/sim/mine': async (p) => {
      const blocks = p.blocks === undefined ? 1 : Number(p.blocks);
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > 10_000) return bad('blocks: 1 to 10000');
      return ok({ height: await node.mine(blocks) });
    },
    '/sim/reorg': async (p) => {
      const depth = Number(p.depth);
      if (!Number.isInteger(depth) || depth < 1) return bad('depth: a positive integer');
      return ok({ height: await node.reorg(depth, p.keep_transactions === true) });
    },
  };
}
