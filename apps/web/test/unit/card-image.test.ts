import { CARD_ERRORS, CARD_IMAGE_MAX_BYTES } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { fitWithin, imageFileError } from '../../src/features/card/image.ts';

describe('card-holder image check (docs/cards.md#validation: jpeg, png, jpg, under 10 MB)', () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  it('accepts JPEG and PNG images by type, and by extension when the browser gives no type', () => {
    expect(imageFileError(file('a.jpg', 'image/jpeg'))).toBeUndefined();
    expect(imageFileError(file('a.png', 'image/png'))).toBeUndefined();
    expect(imageFileError(file('a.jpg', 'image/jpg'))).toBeUndefined();
    expect(imageFileError(file('A.JPEG', ''))).toBeUndefined();
  });

  it('refuses other formats, PDF included', () => {
    expect(imageFileError(file('a.pdf', 'application/pdf'))).toBe(CARD_ERRORS.documentFormatInvalid);
    expect(imageFileError(file('a.gif', 'image/gif'))).toBe(CARD_ERRORS.documentFormatInvalid);
    expect(imageFileError(file('a.webp', ''))).toBe(CARD_ERRORS.documentFormatInvalid);
  });

  it('refuses 10 MB and more ("Image must smaller than 10MB!")', () => {
    expect(imageFileError(file('a.jpg', 'image/jpeg', CARD_IMAGE_MAX_BYTES - 1))).toBeUndefined();
    expect(imageFileError(file('a.jpg', 'image/jpeg', CARD_IMAGE_MAX_BYTES))).toBe(
      CARD_ERRORS.documentTooLarge,
    );
  });
});

describe('compression size (docs/cards.md#validation: at most 600x600)', () => {
  it('scales a large image down into the box, keeping its proportions', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 600, height: 450 });
    expect(fitWithin(1080, 1920)).toEqual({ width: 338, height: 600 });
    expect(fitWithin(1200, 1200)).toEqual({ width: 600, height: 600 });
  });

  it('never scales a small image up', () => {
    expect(fitWithin(640, 480, 800, 800)).toEqual({ width: 640, height: 480 });
    expect(fitWithin(320, 240)).toEqual({ width: 320, height: 240 });
  });

  it('keeps at least one pixel and gives nothing for an empty image', () => {
    expect(fitWithin(6000, 2)).toEqual({ width: 600, height: 1 });
    expect(fitWithin(0, 0)).toEqual({ width: 0, height: 0 });
  });
});
