import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrastRatio, luminance, mix, over, parseHex, readable } from '../../src/app/contrast.ts';
import { CONTRAST_TOKENS, DARK_SURFACES, LIGHT_SURFACES } from '../../src/app/tokens.ts';

describe('contrast arithmetic (WCAG 2.1)', () => {
  it('matches the reference values', () => {
    expect(luminance('#ffffff')).toBe(1);
    expect(luminance('#000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // Mantine's default muted text in each scheme, as axe-core measured it.
    expect(contrastRatio('#828282', '#242424')).toBeCloseTo(4.03, 1);
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 1);
    expect(() => parseHex('blue')).toThrow();
  });

  it('mixes, paints with opacity and finds the nearest readable colour of the same hue', () => {
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(over('#ff0000', 0.1, '#ffffff')).toBe('#ffe6e6');
    const blue = readable('#228be6', ['#ffffff'], '#000000');
    expect(contrastRatio(blue, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    // Only as far as needed: one step less would not do.
    expect(readable(blue, ['#ffffff'], '#000000')).toBe(blue);
    expect(readable('#000000', ['#ffffff'], '#000000')).toBe('#000000');
  });
});

describe('theme contrast tokens', () => {
  const hex = (tokens: Record<string, string>, name: string) => {
    const value = tokens[name];
    if (!value?.startsWith('#')) throw new Error(`${name} is not a colour: ${value}`);
    return value;
  };

  it.each([
    ['light', CONTRAST_TOKENS.light, LIGHT_SURFACES],
    ['dark', CONTRAST_TOKENS.dark, DARK_SURFACES],
  ] as const)('gives muted and coloured text 4.5:1 on every %s surface', (_scheme, tokens, surfaces) => {
    const texts = Object.keys(tokens).filter((n) => /-(text|light-color|outline)$|-dimmed$/.test(n));
    expect(texts.length).toBeGreaterThan(30);
    for (const name of texts)
      for (const surface of surfaces)
        expect(contrastRatio(hex(tokens, name), surface), `${name} on ${surface}`).toBeGreaterThanOrEqual(
          AA_TEXT,
        );
  });

  it('gives white labels 4.5:1 on every filled colour, in both schemes', () => {
    for (const tokens of [CONTRAST_TOKENS.light, CONTRAST_TOKENS.dark])
      for (const name of Object.keys(tokens).filter((n) => /-filled(-hover)?$/.test(n)))
        expect(contrastRatio(hex(tokens, name), '#ffffff'), name).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('keeps the look: default shades that already pass are unchanged', () => {
    // The dark scheme's blue links (blue-4) and red figures (red-4) already passed.
    expect(CONTRAST_TOKENS.dark['--mantine-color-blue-text']).toBe(
      DEFAULT_THEME.colors.blue[4].toLowerCase(),
    );
    expect(CONTRAST_TOKENS.dark['--mantine-color-anchor']).toBe('var(--mantine-color-blue-text)');
  });
});
