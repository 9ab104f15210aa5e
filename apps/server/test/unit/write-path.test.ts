import { describe, expect, it } from 'vitest';
import { combine, encodeArrays } from '../../src/core/batch-rows.ts';
import { type StreamClient, StreamHub, textFrame } from '../../src/modules/ranger/hub.ts';

describe('combine', () => {
  it('keeps a lone statement as it is', () => {
    const one = { text: 'update t set a = $1', values: [1], rows: 1 };
    expect(combine([one])).toEqual([one]);
    expect(combine([])).toEqual([]);
  });

  it('renumbers parameters after the earlier parts and asks for each part count', () => {
    const [merged] = combine([
      {
        text: 'insert into a (x, y) select * from unnest($1::int[], $2::text[])',
        values: [[1], ['a']],
        rows: 1,
      },
      { text: 'update b set z = $1 where id = $2', values: [5, 7] },
      { text: 'insert into c (v) values ($1), ($10)', values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
    ]);
    expect(merged?.values).toEqual([[1], ['a'], 5, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(merged?.text).toContain(
      's0 as (insert into a (x, y) select * from unnest($1::int[], $2::text[]) returning 1)',
    );
    expect(merged?.text).toContain('s1 as (update b set z = $3 where id = $4 returning 1)');
    expect(merged?.text).toContain('s2 as (insert into c (v) values ($5), ($14) returning 1)');
    expect(merged?.text).toContain('(select count(*) from s2) as n2');
    expect(merged?.counts).toEqual([1, undefined, undefined]);
  });
});

describe('encodeArrays', () => {
  it('writes array parameters as PostgreSQL array literals, quoting every text', () => {
    const [s] = encodeArrays([
      { text: 'x', values: [[1, 2n, null], ['a', 'NULL', '', 'q"uo\\te,{}'], [true, false], 7, 'plain'] },
    ]);
    expect(s?.values).toEqual(['{1,2,NULL}', '{"a","NULL","","q\\"uo\\\\te,{}"}', '{t,f}', 7, 'plain']);
  });
});

function fakeClient(streams: string[], framed = false) {
  const log: string[] = [];
  const client: StreamClient = {
    streams: new Set(),
    send: (message) => {
      log.push(`send ${message.toString()}`);
      return true;
    },
    close: () => log.push('close'),
  };
  const writes: Buffer[] = [];
  if (framed)
    client.sendFrame = (frames) => {
      writes.push(frames);
      return true;
    };
  return { client, log, streams, writes };
}

describe('StreamHub batches', () => {
  it('holds a batch back, then writes each client everything it subscribed to in one write', () => {
    const hub = new StreamHub();
    const a = fakeClient(['m.trades'], true);
    const b = fakeClient(['m.trades', 'm.ob-inc'], true);
    const c = fakeClient(['m.ob-inc', 'm.trades'], true);
    const plain = fakeClient(['m.trades', 'm.ob-inc']);
    for (const x of [a, b, c, plain]) hub.subscribe(x.client, x.streams);
    hub.batch(() => {
      hub.publish('m.trades', { trades: [1] });
      hub.publish('m.ob-inc', { asks: ['1', '2'] });
    });
    expect([a, b, c, plain].map((x) => x.writes.length + x.log.length)).toEqual([0, 0, 0, 0]);
    hub.flush();
    const trades = textFrame(Buffer.from('{"m.trades":{"trades":[1]}}'));
    const inc = textFrame(Buffer.from('{"m.ob-inc":{"asks":["1","2"]}}'));
    expect(a.writes).toEqual([trades]);
    // Publishing order, whatever order the client subscribed in; the same bytes are shared, not copied.
    expect(b.writes).toEqual([Buffer.concat([trades, inc])]);
    expect(c.writes[0]).toBe(b.writes[0]);
    // A client without direct frame writes gets each message through `send`, in order.
    expect(plain.log).toEqual(['send {"m.trades":{"trades":[1]}}', 'send {"m.ob-inc":{"asks":["1","2"]}}']);
    // Outside a batch nothing is held back.
    hub.publish('m.trades', { trades: [2] });
    expect(a.writes.at(-1)).toEqual(textFrame(Buffer.from('{"m.trades":{"trades":[2]}}')));
    hub.flush();
    expect(a.writes).toHaveLength(2);
  });

  it('flushes by itself after a batch', async () => {
    const hub = new StreamHub(0);
    const a = fakeClient(['m.trades']);
    hub.subscribe(a.client, a.streams);
    const sent = new Promise<string>((resolve) => {
      a.client.send = (message) => {
        resolve(message.toString());
        return true;
      };
    });
    hub.batch(() => hub.publish('m.trades', { trades: [3] }));
    expect(await sent).toBe('{"m.trades":{"trades":[3]}}');
  });

  it('drops a client that cannot keep up, in a batch or not', () => {
    const hub = new StreamHub();
    const slow = fakeClient(['m.trades', 'm.ob-inc']);
    slow.client.send = () => false;
    hub.subscribe(slow.client, slow.streams);
    expect(hub.publish('m.trades', {})).toBe(0);
    expect(slow.log).toEqual(['close']);
    expect(hub.subscriberCount('m.trades')).toBe(0);
    expect(hub.subscriberCount('m.ob-inc')).toBe(0);
    const late = fakeClient(['m.trades'], true);
    late.client.sendFrame = () => false;
    hub.subscribe(late.client, late.streams);
    hub.batch(() => hub.publish('m.trades', {}));
    hub.flush();
    expect(late.log).toEqual(['close']);
    expect(hub.subscriberCount('m.trades')).toBe(0);
  });
});

describe('textFrame', () => {
  it('frames text as an unmasked final websocket frame with 7, 16 or 64-bit lengths', () => {
    expect([...textFrame(Buffer.from('hi'))]).toEqual([0x81, 2, 0x68, 0x69]);
    const mid = textFrame(Buffer.alloc(300, 0x61));
    expect([...mid.subarray(0, 4)]).toEqual([0x81, 126, 0x01, 0x2c]);
    expect(mid.length).toBe(304);
    const big = textFrame(Buffer.alloc(70_000, 0x61));
    expect([...big.subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70]);
    expect(big.length).toBe(70_010);
  });
});
