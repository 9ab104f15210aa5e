import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { member } from '../support/wallet.ts';

// Issue 30: a TypeScript client generated from the documents (openapi-typescript types, openapi-fetch calls)
// compiles against real field names and makes real calls to a running server.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
let t: TestApp;
let base: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // Inside the repository (under node_modules/.cache), so the program resolves openapi-fetch like any module here.
  mkdirSync(path.join(ROOT, 'node_modules/.cache'), { recursive: true });
  dir = mkdtempSync(path.join(ROOT, 'node_modules/.cache/openapi-client-'));
  // An ES module program (Node reads a folder under node_modules as a package of its own).
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  for (const api of ['barong', 'peatio']) {
    const doc = (await t.app.inject({ method: 'GET', url: `/api/v2/${api}/swagger` })).json();
    writeFileSync(path.join(dir, `${api}.d.ts`), astToString(await openapiTS(doc)));
  }
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** The client program: typed calls, their results printed as JSON. */
const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths as Barong } from './barong.js';
import type { paths as Peatio } from './peatio.js';

const [base = '', cookie = '', csrf = ''] = process.argv.slice(2);
const peatio = createClient<Peatio>({ baseUrl: \`\${base}/api/v2/peatio\` });
const barong = createClient<Barong>({ baseUrl: \`\${base}/api/v2/barong\` });
const signedIn = { cookie, 'x-csrf-token': csrf };

const markets = await peatio.GET('/public/markets', { params: { query: { limit: 2 } } });
const btc = await peatio.GET('/public/currencies/{id}', { params: { path: { id: 'btc' } } });
const login = await barong.POST('/identity/sessions', { body: { email: 'nobody@example.com', password: 'Wrong-pass#1' } });
const balances = await peatio.GET('/account/balances', { headers: signedIn });
const placed = await peatio.POST('/market/orders', {
  headers: signedIn,
  body: { market: 'ethbtc', side: 'sell', volume: '0.5', price: '0.07' },
});
const order = placed.data
  ? await peatio.GET('/market/orders/{id}', { params: { path: { id: String(placed.data.id) } }, headers: signedIn })
  : undefined;
const eth = balances.data?.find((b) => b.currency === 'eth');
console.log(JSON.stringify({
  markets: markets.data?.map((m) => m.id),
  total: markets.response.headers.get('Total'),
  base_factor: btc.data?.base_factor,
  homepage: btc.data?.homepage,
  login: [login.response.status, login.error?.errors],
  eth: eth && { balance: eth.balance, locked: eth.locked },
  placed: placed.data && { state: placed.data.state, price: placed.data.price, ask: placed.data.ask },
  trades: order?.data?.trades.length,
}));
`;

/** The same client reading a field the document does not have: it must not compile. */
const WRONG = `import createClient from 'openapi-fetch';
import type { paths as Peatio } from './peatio.js';
const peatio = createClient<Peatio>({ baseUrl: '' });
const btc = await peatio.GET('/public/currencies/{id}', { params: { path: { id: 'btc' } } });
console.log(btc.data?.no_such_field);
`;

const tsc = (file: string) =>
  spawnSync(
    process.execPath,
    [
      // TypeScript 5.9 by its package, not node_modules/.bin/tsc: TypeScript 7 (typescript-native) has a tsc too.
      createRequire(import.meta.url).resolve('typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      file,
    ],
    { cwd: dir, encoding: 'utf8' },
  );

describe('a TypeScript client generated from the documents', () => {
  it('compiles against the generated types, and refuses a field the document does not have', () => {
    writeFileSync(path.join(dir, 'client.ts'), PROGRAM);
    writeFileSync(path.join(dir, 'wrong.ts'), WRONG);
    const good = tsc('client.ts');
    expect(good.status, good.stdout + good.stderr).toBe(0);
    const bad = tsc('wrong.ts');
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain("Property 'no_such_field' does not exist");
  });

  it('makes real calls to the server with it', async () => {
    const who = await member(t, 'client@openapi.test');
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: who.id,
      currency: 'eth',
      amount: 10n ** 18n,
      kind: 'deposit',
    });
    // Not a synchronous child: the server answering it runs in this very process.
    const { stdout: output } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(dir, 'client.ts'),
        base,
        who.headers.cookie ?? '',
        who.headers['x-csrf-token'] ?? '',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(JSON.parse(output)).toEqual({
      markets: ['ethbtc', 'btcusdt'],
      total: '4',
      base_factor: 100_000_000,
      homepage: 'https://bitcoin.org',
      login: [401, ['identity.session.invalid_params']],
      eth: { balance: '1', locked: '0' },
      placed: { state: 'wait', price: '0.07', ask: 'eth' },
      trades: 0,
    });
  });
});
