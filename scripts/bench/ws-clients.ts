/**
 * Holds `count` websocket clients on one market's trades and order book, in a process of its own. Each trade frame
 * gets its receive time; at the end it prints, per trade id, when each client got it (epoch ms), as JSON.
 *
 * The clients speak the websocket protocol (RFC 6455) over plain TCP sockets with only what a receiver needs: the
 * upgrade handshake (its Sec-WebSocket-Accept checked), frame lengths, and a pong for a ping. A full client
 * library costs several times the CPU per frame, and on two shared cores that time was being measured as the
 * server's delay.
 */
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';

const [url, countText, secondsText] = process.argv.slice(2);
const count = Number(countText);
const seconds = Number(secondsText);
const target = new URL(`${url}/api/v2/ranger/public/?stream=ethbtc.trades&stream=ethbtc.ob-inc`);
const received = new Map<number, number[]>();
const TRADES = Buffer.from('{"ethbtc.trades"');
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
let frames = 0;
let open = 0;
const sockets: net.Socket[] = [];

/** Notes the time a trade frame arrived, per trade id in it. */
function onTrades(payload: Buffer, now: number): void {
  for (const [, tid] of payload.toString('latin1').matchAll(/"tid":(\d+)/g)) {
    const list = received.get(Number(tid));
    if (list) list.push(now);
    else received.set(Number(tid), [now]);
  }
}

/** A masked client frame (RFC 6455 §5.3) with a short payload: what a pong must be. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x80 | opcode;
  frame[1] = 0x80 | payload.length;
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = (payload[i] as number) ^ (mask[i % 4] as number);
  return frame;
}

/**
 * Reads whole frames from `data` and returns the unread rest (a frame split across TCP reads). Server frames are
 * unmasked; lengths are 7 bits, or 16 or 64 bits after the markers 126 and 127.
 */
function readFrames(socket: net.Socket, data: Buffer, now: number): Buffer {
  let at = 0;
  while (data.length - at >= 2) {
    const opcode = (data[at] as number) & 0x0f;
    let length = (data[at + 1] as number) & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (data.length - at < 4) break;
      length = data.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      if (data.length - at < 10) break;
      length = Number(data.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    if (data.length < start + length) break;
    const payload = data.subarray(start, start + length);
    frames++;
    if (opcode === 1 && payload.subarray(0, TRADES.length).equals(TRADES)) onTrades(payload, now);
    else if (opcode === 9) socket.write(clientFrame(10, payload));
    at = start + length;
  }
  return data.subarray(at);
}

/** Opens one client; a connection refused while thousands open at once is tried again. */
function connect(): void {
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');
  const socket = net.connect(Number(target.port), target.hostname);
  socket.setNoDelay(true);
  let upgraded = false;
  let rest: Buffer = Buffer.alloc(0);
  socket.on('connect', () => {
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
  socket.on('data', (chunk: Buffer) => {
    const now = performance.timeOrigin + performance.now();
    let data: Buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    if (!upgraded) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) {
        rest = data;
        return;
      }
      const head = data.subarray(0, end).toString('latin1');
      if (!head.startsWith('HTTP/1.1 101') || !head.includes(`Sec-WebSocket-Accept: ${accept}`)) {
        throw new Error(`websocket upgrade refused: ${head.split('\r\n')[0]}`);
      }
      upgraded = true;
      sockets.push(socket);
      open++;
      if (open === count) process.stdout.write('ready\n');
      data = data.subarray(end + 4);
    }
    rest = readFrames(socket, data, now);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (!upgraded) setTimeout(connect, 50);
  });
}

for (let i = 0; i < count; i++) {
  connect();
  if (i % 200 === 199) await new Promise((r) => setTimeout(r, 20));
}
process.stdin.once('data', () => {
  for (const socket of sockets) socket.destroy();
  const trades = [...received.entries()].map(([tid, times]) => [
    tid,
    times.map((t) => Math.round(t * 100) / 100),
  ]);
  // Exit only once the whole report has left the pipe.
  process.stdout.write(`${JSON.stringify({ frames, open, trades, seconds })}\n`, () => process.exit(0));
});
