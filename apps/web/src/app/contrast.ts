/**
 * Colour arithmetic for WCAG 2.1 contrast (success criteria 1.4.3 and 1.4.11): relative luminance, contrast
 * ratios, and the nearest colour of the same hue that is readable on given backgrounds. The theme derives its
 * text, link and figure tokens with it, so both colour schemes meet AA by construction.
 */

/** Normal text (WCAG 1.4.3, level AA). */
export const AA_TEXT = 4.5;
/** Large text and user-interface components (WCAG 1.4.3 and 1.4.11, level AA). */
export const AA_LARGE = 3;

type Rgb = readonly [number, number, number];

const rgb = (channels: readonly number[]): Rgb => [channels[0] ?? 0, channels[1] ?? 0, channels[2] ?? 0];

/** Parses `#rgb` or `#rrggbb` (any case) into 0–255 channels. */
export function parseHex(hex: string): Rgb {
  const digits = hex.replace(/^#/, '');
  const full =
    digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits.length === 6 ? digits : undefined;
  if (!full || !/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a hex colour: ${hex}`);
  return rgb([0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)));
}

/** Formats 0–255 channels (rounded and clamped) as lower-case `#rrggbb`. */
export function toHex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The relative luminance of a colour, as WCAG 2.1 defines it (0 black to 1 white). */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(
    parseHex(hex).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }),
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `color` mixed with `target`: `amount` 0 is `color`, 1 is `target` (in sRGB, as CSS `color-mix` does). */
export function mix(color: string, target: string, amount: number): string {
  const from = parseHex(color);
  const to = parseHex(target);
  return toHex(rgb(from.map((c, i) => c + ((to[i] ?? c) - c) * amount)));
}

/** The colour seen when `color` at `alpha` opacity is painted over `background`. */
export function over(color: string, alpha: number, background: string): string {
  return mix(background, color, alpha);
}

/**
 * `color`, or the nearest colour towards `toward` (black to darken, white to lighten) that has at least
 * `minimum` contrast against every one of `backgrounds`. The hue stays; only the lightness moves, in 1 % steps.
 */
export function readable(
  color: string,
  backgrounds: readonly string[],
  toward: '#000000' | '#ffffff',
  minimum = AA_TEXT,
): string {
  for (let step = 0; step <= 100; step++) {
    const candidate = mix(color, toward, step / 100);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= minimum)) return candidate;
  }
  throw new Error(`no colour from ${color} toward ${toward} reaches ${minimum}:1`);
}
