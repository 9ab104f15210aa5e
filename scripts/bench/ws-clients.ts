/**
 * Holds `count` websocket clients on one market's trades and order book, in a process of its own. Each trade frame
 * gets its receive time; at the end it prints, per trade id, how many clients got it and when (epoch ms), as JSON.
 */
import WebSocket from 'ws';

const [url, countText, secondsText] = process.argv.slice(2);
const count = Number(countText);
const seconds = Number(secondsText);
const received = new Map<number, number[]>();
let frames = 0;
let open = 0;
const sockets: WebSocket[] = [];
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(`${url}/api/v2/ranger/public/?stream=ethbtc.trades&stream=ethbtc.ob-inc`);
  ws.on('open', () => {
    open++;
    if (open === count) process.stdout.write('ready\n');
  });
  ws.on('message', (data) => {
    frames++;
    const now = performance.timeOrigin + performance.now();
    const text = data.toString();
    if (!text.startsWith('{"ethbtc.trades"')) return;
    // The trade ids only (a full JSON.parse per frame and client would slow this load generator down).
    for (const [, tid] of text.matchAll(/"tid":(\d+)/g)) {
      const list = received.get(Number(tid));
      if (list) list.push(now);
      else received.set(Number(tid), [now]);
    }
  });
  ws.on('error', () => {});
  sockets.push(ws);
  if (i % 200 === 199) await new Promise((r) => setTimeout(r, 20));
}
/** Per trade: how many clients got it, and the median, 99th percentile and last receive time. */
function summary(times: number[]): [number, number, number, number] {
  const sorted = times.sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return [sorted.length, at(0.5), at(0.99), sorted[sorted.length - 1] ?? 0];
}

process.stdin.once('data', () => {
  for (const ws of sockets) ws.terminate();
  const trades = [...received.entries()].map(([tid, times]) => [tid, ...summary(times)]);
  // Exit only once the whole report has left the pipe.
  process.stdout.write(`${JSON.stringify({ frames, open, trades, seconds })}\n`, () => process.exit(0));
});
