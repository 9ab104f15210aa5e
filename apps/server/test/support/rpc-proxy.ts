import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with `eth_sendRawTransaction`; every other call is passed through untouched.
 * - `forward`: pass it through too;
 * - `swallow`: forward it to the node, then never answer (the node got it, the answer is lost);
 * - `reject`: answer with a JSON-RPC error, as a node refusing the transaction does;
 * - `already-known`: forward it, then answer with the "already known" error;
 * - `bad-gateway`: answer HTTP 502 without forwarding, as a failing load balancer does.
 */
export type BroadcastMode = 'forward' | 'swallow' | 'reject' | 'already-known' | 'bad-gateway';

export interface RpcProxy {
  url: string;
  mode: BroadcastMode;
  close(): Promise<void>;
}

interface RpcCall {
  id: unknown;
  method: string;
}

/** A JSON-RPC HTTP proxy on 127.0.0.1 in front of `target`, to play the broadcast failures a real network has. */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', mode: 'forward', close: async () => {} };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as RpcCall | RpcCall[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const broadcast = calls.some((call) => call.method === 'eth_sendRawTransaction');
    const mode = broadcast ? proxy.mode : 'forward';

    if (mode === 'bad-gateway') {
      res.writeHead(502).end('bad gateway');
      return;
    }
    if (mode === 'reject') {
      const errors = calls.map((call) => ({
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32000, message: 'insufficient funds for gas * price + value' },
      }));
      reply(res, Array.isArray(parsed) ? errors : errors[0]);
      return;
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await answer.text();
    if (mode === 'swallow') return;
    if (mode === 'already-known') {
      const errors = calls.map((call) => ({
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32000, message: 'already known' },
      }));
      reply(res, Array.isArray(parsed) ? errors : errors[0]);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    // Swallowed requests keep their sockets open: close them, or close() waits forever.
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  };
  return proxy;
}

function reply(res: http.ServerResponse, payload: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
}
