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
  return channelsLuminance(parseHex(hex));
}

function channelsLuminance(channels: Rgb): number {
  const [r, g, b] = rgb(
    channels.map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }),
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  return luminanceRatio(luminance(a), luminance(b));
}

function luminanceRatio(la: number, lb: number): number {
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `color` mixed with `target`: `amount` 0 is `color`, 1 is `target` (in sRGB, as CSS `color-mix` does). */
export function mix(color: string, target: string, amount: number): string {
  return toHex(mixChannels(parseHex(color), parseHex(target), amount));
}

/** The channels of `mix`, rounded and clamped as its hex string is: the same colour, without the string. */
function mixChannels(from: Rgb, to: Rgb, amount: number): Rgb {
  return rgb(from.map((c, i) => Math.round(Math.min(255, Math.max(0, c + ((to[i] ?? c) - c) * amount)))));
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
  // In numbers, not hex strings: the theme calls this some hundred times on every page load.
  const from = parseHex(color);
  const to = parseHex(toward);
  const surfaces = backgrounds.map(luminance);
  for (let step = 0; step <= 100; step++) {
    const candidate = mixChannels(from, to, step / 100);
    const lum = channelsLuminance(candidate);
    if (surfaces.every((bg) => luminanceRatio(lum, bg) >= minimum)) return toHex(candidate);
  }
  throw new Error(`no colour from ${color} toward ${toward} reaches ${minimum}:1`);
}
