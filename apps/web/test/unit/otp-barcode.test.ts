import { describe, expect, it } from 'vitest';
import { barcodeSrc } from '../../src/features/settings/barcode.ts';

describe("Barong's two-factor QR barcode", () => {
  it('is bare base64; the web app adds the PNG data URL prefix itself, as BaseApp does', () => {
    expect(barcodeSrc('iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('keeps a value that is already a data URL', () => {
    expect(barcodeSrc('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });
});
