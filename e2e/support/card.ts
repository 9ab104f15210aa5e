import type { Page } from 'playwright-core';
import { postFromPage, unique } from './accounts.ts';
import { operator } from './cli.ts';
import { pollUntil } from './poll.ts';
import { depositFromFaucet, getFromPage } from './wallet.ts';

/** Where a card ordered by the tests is shipped. */
const SHIPPING = { address: 'Mariahilfer Str. 1', city: 'Wien', post_code: '1060', country: 'AT' };

/**
 * A small PNG document image drawn in the page, for a file chooser (its signature is what the server checks, then
 * the browser re-encodes it).
 */
export async function documentImage(page: Page, colour: string, text = 'IDENTITY CARD'): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ({ fill, label }) => {
      const canvas = document.createElement('canvas');
      canvas.width = 900;
      canvas.height = 600;
      const g = canvas.getContext('2d') as CanvasRenderingContext2D;
      g.fillStyle = fill;
      g.fillRect(0, 0, 900, 600);
      g.fillStyle = '#000';
      g.fillText(label, 40, 60);
      return canvas.toDataURL('image/png');
    },
    { fill: colour, label: text },
  );
  return Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
}

/** Uploads a small PNG drawn in the page as a card holder document (`passport`, `selfie`). */
async function uploadDocument(page: Page, docType: string): Promise<void> {
  const status = await page.evaluate(async (type) => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 400;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    g.fillStyle = '#cde';
    g.fillRect(0, 0, 600, 400);
    g.fillStyle = '#000';
    g.fillText(type.toUpperCase(), 40, 60);
    const image = await new Promise<Blob>((done) => canvas.toBlob((b) => done(b as Blob), 'image/png'));
    const form = new FormData();
    form.append('doc_type', type);
    form.append('document_data', image, `${type}.png`);
    const csrf = localStorage.getItem('csrfToken');
    const response = await fetch('/api/v2/peatio/account/upload_document', {
      method: 'POST',
      credentials: 'include',
      headers: csrf ? { 'X-CSRF-Token': csrf } : {},
      body: form,
    });
    return response.status;
  }, docType);
  if (status !== 201) throw new Error(`${docType} upload refused: ${status}`);
}

/**
 * Takes the user signed in on `page` (level 3) through the card application by API, the way the wizard does:
 * a Japanese passport and a selfie, the simulated issuer's approval, 200 USDT from the faucet, and a card ordered
 * and paid. The card is delivered but not active; returns its masked number.
 */
export async function orderedCard(page: Page, email: string): Promise<string> {
  const applied = await postFromPage(page, '/api/v2/peatio/account/cardholder', {
    id_type: 'passport',
    country: 'JP',
    id_no: `K${unique()}`.slice(0, 12),
  });
  if (applied.status !== 201) throw new Error(`application refused: ${JSON.stringify(applied.body)}`);
  await uploadDocument(page, 'passport');
  await uploadDocument(page, 'selfie');
  const submitted = await postFromPage(page, '/api/v2/peatio/account/cardholder_document', {});
  if (submitted.status !== 201) throw new Error(`documents refused: ${JSON.stringify(submitted.body)}`);
  await operator('card', 'review', 'approve', email);
  await pollUntil(
    async () => (await getFromPage<{ status: string }>(page, '/api/v2/peatio/account/card_audit')).status,
    (status) => status === 'activation_successful',
    { timeout: 30_000, interval: 500, message: 'the holder was not approved' },
  );
  await depositFromFaucet(page, 'usdt', 'tron-sim', '200');
  const ordered = await postFromPage(page, '/api/v2/peatio/account/card_cost', {
    shipping_address: SHIPPING,
    confirmed: true,
  });
  if (ordered.status !== 201) throw new Error(`card not ordered: ${JSON.stringify(ordered.body)}`);
  return (ordered.body as { card_number: string }).card_number;
}
