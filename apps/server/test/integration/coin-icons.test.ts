import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReferenceData } from '../../src/db/seed.ts';
import { SEED_CURRENCIES } from '../../src/db/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * Coin icons by ticker (docs/wallet.md#constants; issue 32 item 6): every seeded coin has the app's own SVG icon, and
 * `icon_url` points at it, also on a database seeded before there were icons; an operator's own URL is kept.
 */
const ICONS = fileURLToPath(new URL('../../../web/public/icons/coins/', import.meta.url));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const iconUrls = async () =>
  Object.fromEntries(
    (await t.app.inject('/api/v2/peatio/public/currencies'))
      .json()
      .map((c: { id: string; icon_url: string }) => [c.id, c.icon_url]),
  );

describe('coin icons', () => {
  it('ships a small SVG of its own for every seeded coin, and a generic one', () => {
    for (const id of [...SEED_CURRENCIES.map((c) => c.id), 'generic']) {
      const file = `${ICONS}${id}.svg`;
      expect(existsSync(file), file).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32"/);
      expect(svg.trim().endsWith('</svg>')).toBe(true);
      // Self-contained: nothing fetched from elsewhere, no script.
      expect(svg).not.toMatch(/href=|<script|url\(/i);
      expect(svg.length).toBeLessThan(2000);
    }
  });

  it('fills icon_url of every seeded coin with its icon, keeping an operator-set one', async () => {
    const urls = await iconUrls();
    for (const { id } of SEED_CURRENCIES) expect(urls[id]).toBe(`/icons/coins/${id}.svg`);
    // A database seeded before icons existed gets them at the next start; an operator's own URL stays.
    await t.db.pool.query(`update currencies set icon_url = null where id = 'btc'`);
    await t.db.pool.query(`update currencies set icon_url = 'https://cdn.example/eth.png' where id = 'eth'`);
    await seedReferenceData(t.db.pool);
    const again = await iconUrls();
    expect(again.btc).toBe('/icons/coins/btc.svg');
    expect(again.eth).toBe('https://cdn.example/eth.png');
    await t.db.pool.query(`update currencies set icon_url = '/icons/coins/eth.svg' where id = 'eth'`);
  });
});
