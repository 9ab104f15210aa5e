/**
 * The client side of the edge bench, in its own process (its clock and its requests do not share the server's
 * event loop): pings `health/alive` one after another and measures each answer, first alone, then while loops
 * post big bodies without credentials (1 MiB webhooks) and a signed-in user's 10 MB upload, complete each time.
 * Prints the figures as JSON.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

interface FloodSpec {
  base: string;
  cookie: string;
  csrf: string;
  idleSeconds: number;
  floodSeconds: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as FloodSpec;
const MiB = 1024 * 1024;

/** One request with a complete body; resolves with its status, or `reset` when the server cut it off. */
function post(path: string, headers: Record<string, string>, body?: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const req = request(`${spec.base}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      agent: false,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', () => resolve('reset'));
    req.end(body);
  });
}

async function pings(until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    await post('/api/v2/peatio/public/health/alive', {});
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const webhook = Buffer.from(JSON.stringify({ type: 'applicantReviewed', pad: 'a'.repeat(MiB - 1100) }));
const boundary = `----bench${randomBytes(6).toString('hex')}`;
const file = Buffer.alloc(10 * MiB, 7);
Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(file);
const upload = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="doc_type"\r\n\r\npassport\r\n--${boundary}\r\ncontent-disposition: form-data; name="upload"; filename="big.png"\r\ncontent-type: image/png\r\n\r\n`,
  ),
  file,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
const json = { 'content-type': 'application/json' };
const floods: [string, Record<string, string>, Buffer][] = [
  ['/api/v2/barong/public/kyc/webhook', { ...json, 'x-payload-digest': '0'.repeat(64) }, webhook],
  ['/api/v2/barong/public/kyc/webhook', { ...json, 'x-payload-digest': '0'.repeat(64) }, webhook],
  ['/api/v2/peatio/public/card/webhook', json, webhook],
  ['/api/v2/peatio/public/card/webhook', json, webhook],
  [
    '/api/v2/barong/resource/documents',
    {
      cookie: spec.cookie,
      'x-csrf-token': spec.csrf,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    upload,
  ],
];

const idle = await pings(Date.now() + spec.idleSeconds * 1000);
const until = Date.now() + spec.floodSeconds * 1000;
const answers: Record<string, number> = {};
const loops = floods.map(async ([path, headers, body]) => {
  while (Date.now() < until) {
    const status = await post(path, headers, body);
    answers[status] = (answers[status] ?? 0) + 1;
  }
});
const underFlood = await pings(until);
await Promise.all(loops);
process.stdout.write(JSON.stringify({ idle, underFlood, answers }));
