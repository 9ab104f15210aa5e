import { type CSSVariablesResolver, DEFAULT_THEME, type MantineColorsTuple } from '@mantine/core';
import { AA_TEXT, over, readable } from './contrast.ts';

/**
 * Contrast tokens (issue #19, WCAG 2.1 AA): Mantine's colour variables for muted text, links, errors, coloured
 * text (figures, statuses) and filled controls, each moved only as far from Mantine's default shade as it takes to
 * reach 4.5:1 on the surfaces it sits on. Same hues and the same look; no element sets its own colour.
 */

const WHITE = '#ffffff';
const BLACK = '#000000';
const { dark, gray } = DEFAULT_THEME.colors;

/** Backgrounds text sits on in the light scheme: body, grey table stripes and hovers. */
export const LIGHT_SURFACES: readonly string[] = [WHITE, gray[0], gray[1]];
/** Backgrounds text sits on in the dark scheme: body (dark-7) and papers, inputs, cards (dark-6). */
export const DARK_SURFACES: readonly string[] = [dark[7], dark[6]];

/** Opacity of the `light` variant's tinted background, as Mantine paints it per scheme. */
const TINT = { light: 0.1, dark: 0.15 } as const;

type Tokens = Record<string, string>;

/** One palette colour's tokens for the light scheme (Mantine's primary shade there is 6). */
function lightColour(name: string, shades: MantineColorsTuple): Tokens {
  const tinted = LIGHT_SURFACES.map((bg) => over(shades[6], TINT.light, bg));
  const text = readable(shades[6], [...LIGHT_SURFACES, ...tinted], BLACK);
  const filled = readable(shades[6], [WHITE], BLACK);
  return {
    [`--mantine-color-${name}-text`]: text,
    [`--mantine-color-${name}-light-color`]: text,
    [`--mantine-color-${name}-outline`]: text,
    [`--mantine-color-${name}-filled`]: filled,
    [`--mantine-color-${name}-filled-hover`]: readable(filled, [WHITE], BLACK, AA_TEXT + 1),
  };
}

/** One palette colour's tokens for the dark scheme (Mantine's primary shade there is 8). */
function darkColour(name: string, shades: MantineColorsTuple): Tokens {
  const tinted = DARK_SURFACES.map((bg) => over(shades[6], TINT.dark, bg));
  const surfaces = [...DARK_SURFACES, ...tinted];
  const filled = readable(shades[8], [WHITE], BLACK);
  return {
    [`--mantine-color-${name}-text`]: readable(shades[4], surfaces, WHITE),
    [`--mantine-color-${name}-light-color`]: readable(shades[3], surfaces, WHITE),
    [`--mantine-color-${name}-outline`]: readable(shades[4], surfaces, WHITE),
    [`--mantine-color-${name}-filled`]: filled,
    [`--mantine-color-${name}-filled-hover`]: readable(filled, [WHITE], BLACK, AA_TEXT + 1),
  };
}

/** The palette colours that get tokens: every default one but `dark`, which is the dark scheme's surfaces. */
const PALETTE = Object.entries(DEFAULT_THEME.colors).filter(([name]) => name !== 'dark');

function schemeTokens(scheme: 'light' | 'dark'): Tokens {
  const tokens: Tokens = {};
  for (const [name, shades] of PALETTE)
    Object.assign(tokens, scheme === 'light' ? lightColour(name, shades) : darkColour(name, shades));
  const dimmed =
    scheme === 'light' ? readable(gray[6], LIGHT_SURFACES, BLACK) : readable(dark[2], DARK_SURFACES, WHITE);
  return {
    ...tokens,
    '--mantine-color-dimmed': dimmed,
    // Placeholders are text too (WCAG 1.4.3); they keep the muted look of dimmed text.
    '--mantine-color-placeholder': dimmed,
    '--mantine-color-anchor': 'var(--mantine-color-blue-text)',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  };
}

/** The contrast tokens per scheme, computed once (exported for the unit test that checks every ratio). */
export const CONTRAST_TOKENS = { light: schemeTokens('light'), dark: schemeTokens('dark') } as const;

/** Mantine's `cssVariablesResolver`: the contrast tokens on top of Mantine's own variables. */
export const contrastTokens: CSSVariablesResolver = () => ({
  variables: {},
  light: CONTRAST_TOKENS.light,
  dark: CONTRAST_TOKENS.dark,
});
