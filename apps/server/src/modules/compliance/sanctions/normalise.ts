/**
 * Name normalisation for sanctions screening: the same person written in Latin with or without diacritics, in
 * Cyrillic or in Greek, in any case and with any punctuation, comes out as the same lowercase ASCII tokens.
 */

/** Cyrillic letters (Russian, Ukrainian, Belarusian, Serbian, Bulgarian) to Latin, close to common passport usage. */
const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  ё: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ў: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  џ: 'dz',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

/** Greek letters (after NFKD has removed the accents) to Latin. */
const GREEK: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

/** Latin letters that NFKD does not decompose into a base letter and a mark. */
const LATIN_EXTRA: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const LETTERS: Record<string, string> = { ...CYRILLIC, ...GREEK, ...LATIN_EXTRA };

/** Greek pairs of letters read as one sound (ELOT 743): before the letters one by one. */
const GREEK_PAIRS: [RegExp, string][] = [
  [/ου/g, 'ou'],
  [/αυ/g, 'av'],
  [/ευ/g, 'ev'],
  [/μπ/g, 'b'],
  [/ντ/g, 'd'],
  [/γκ/g, 'g'],
];

/**
 * Spelling variants folded together after transliteration, on both sides of a comparison, so that the usual
 * romanisations of one name meet: Aleksey/Alexei, Mikhail/Michail, Yusuf/Jusuf stay apart only by what the
 * per-token similarity forgives.
 */
function fold(token: string): string {
  return token
    .replace(/x/g, 'ks')
    .replace(/ph/g, 'f')
    .replace(/kh/g, 'h')
    .replace(/ch/g, 'h')
    .replace(/w/g, 'v')
    .replace(/q/g, 'k')
    .replace(/y/g, 'i')
    .replace(/j/g, 'i')
    .replace(/(.)\1+/g, '$1');
}

/**
 * The normalised tokens of a name: Unicode NFKD, diacritics removed, Cyrillic and Greek transliterated, lowercase,
 * punctuation turned into spaces (an apostrophe or a hyphen inside a name joins nothing), spelling variants folded.
 */
export function nameTokens(name: string): string[] {
  let decomposed = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '');
  for (const [pair, latin] of GREEK_PAIRS) decomposed = decomposed.replace(pair, latin);
  let latin = '';
  for (const ch of decomposed) latin += LETTERS[ch] ?? ch;
  return latin
    .replace(/['’`ʼ]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((t) => t.length > 0)
    .map(fold);
}

/** The normalised name as one string (tokens joined by a space), for display and deduplication. */
export function normaliseName(name: string): string {
  return nameTokens(name).join(' ');
}
