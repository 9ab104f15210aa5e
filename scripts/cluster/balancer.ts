import http from 'node:http';
import net from 'node:net';

/** A backend the balancer may send to. */
export interface Backend {
  host: string;
  port: number;
}

/**
 * A small round-robin load balancer for the local cluster: websocket upgrades under `/api/v2/ranger` go to the
 * ws processes, everything else to the api processes. A backend that refuses the connection is skipped for the
 * next one, so killing a process does not take the site down.
 */
export function startBalancer(port: number, api: Backend[], ws: Backend[]): http.Server {
  let next = 0;
  const pick = (pool: Backend[], skip: number) => pool[(next + skip) % pool.length] as Backend;

  const server = http.createServer((req, res) => {
    const attempt = (skip: number) => {
      if (skip >= api.length) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"errors":["server.unavailable"]}');
        return;
      }
      const target = pick(api, skip);
      const upstream = http.request(
        { host: target.host, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED' && !res.headersSent) attempt(skip + 1);
        else res.destroy();
      });
      req.pipe(upstream);
    };
    next++;
    attempt(0);
  });

  server.on('upgrade', (req, socket, head) => {
    const pool = req.url?.startsWith('/api/v2/ranger') ? ws : api;
    const attempt = (skip: number) => {
      if (skip >= pool.length) return socket.destroy();
      const target = pick(pool, skip);
      const upstream = net.connect(target.port, target.host, () => {
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED') attempt(skip + 1);
        else socket.destroy();
      });
      socket.on('error', () => upstream.destroy());
    };
    next++;
    attempt(0);
  });
  server.listen(port, '127.0.0.1');
  return server;
}
