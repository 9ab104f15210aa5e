import { suiteApp } from './suite-app.ts';

/** The suite's server clock as its test-only control (NODE_ENV=test) reports it. */
interface ServerClock {
  now: string;
  offset_ms: number;
}

/** The control of the suite's server, or of the one at `baseUrl` (a spec's own server, NODE_ENV=test). */
const CLOCK = (baseUrl?: string) => `${baseUrl ?? suiteApp().baseUrl}/api/v2/dev/clock`;

/**
 * Moves the suite's server clock `ms` ahead (the test-only control of a NODE_ENV=test server): a rate-limit
 * window or an expiry passes at once instead of being waited out. The move stays for the rest of the run;
 * every rule on the server measures on the same clock, so nothing but time has changed.
 */
export async function advanceServerClock(ms: number, baseUrl?: string): Promise<void> {
  const res = await fetch(CLOCK(baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: Math.ceil(ms) }),
  });
  if (res.status !== 200) throw new Error(`the server clock did not move: ${res.status} ${await res.text()}`);
}

/** The server's time now (ms since the epoch): a program that signs with it is in step with the server. */
export async function serverNow(baseUrl?: string): Promise<number> {
  const res = await fetch(CLOCK(baseUrl));
  if (res.status !== 200) throw new Error(`no server clock: ${res.status}`);
  return Date.now() + ((await res.json()) as ServerClock).offset_ms;
}
