/**
 * Holds `count` websocket clients on one market's trades and order book, in a process of its own. Each trade frame
 * gets its receive time; at the end it prints, per trade id, when each client got it (epoch ms), as JSON.
 */
import WebSocket from 'ws';

const [url, countText, secondsText] = process.argv.slice(2);
const count = Number(countText);
const seconds = Number(secondsText);
const received = new Map<number, number[]>();
let frames = 0;
let open = 0;
const sockets: WebSocket[] = [];
function onMessage(data: WebSocket.RawData) {
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
}
/** Opens one client; a connection refused while thousands open at once is tried again. */
function connect(): void {
  const ws = new WebSocket(`${url}/api/v2/ranger/public/?stream=ethbtc.trades&stream=ethbtc.ob-inc`);
  let opened = false;
  ws.on('open', () => {
    opened = true;
    sockets.push(ws);
    open++;
    if (open === count) process.stdout.write('ready\n');
  });
  ws.on('message', onMessage);
  ws.on('error', () => {});
  ws.on('close', () => {
    if (!opened) setTimeout(connect, 50);
  });
}
for (let i = 0; i < count; i++) {
  connect();
  if (i % 200 === 199) await new Promise((r) => setTimeout(r, 20));
}
process.stdin.once('data', () => {
  for (const ws of sockets) ws.terminate();
  const trades = [...received.entries()].map(([tid, times]) => [
    tid,
    times.map((t) => Math.round(t * 100) / 100),
  ]);
  // Exit only once the whole report has left the pipe.
  process.stdout.write(`${JSON.stringify({ frames, open, trades, seconds })}\n`, () => process.exit(0));
});
