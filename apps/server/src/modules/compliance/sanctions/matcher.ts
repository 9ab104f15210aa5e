import { nameTokens } from './normalise.ts';

/**
 * Jaro-Winkler similarity of two strings, 0..1 (1: equal). Forgiving of a swapped or mistyped letter and more so
 * when the start agrees, which suits names (the usual measure of name-matching tools).
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = true;
      bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[k]) k++;
    if (a[i] !== b[k]) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / a.length + m / b.length + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/**
 * Words that name a legal form or join words (normalised as {@link nameTokens} gives them): they say nothing about
 * who is named, so they are left out of a comparison (unless nothing else is left).
 */
const NOISE = new Set([
  'ltd',
  'limited',
  'llc',
  'lp',
  'plc',
  'inc',
  'corp',
  'co',
  'company',
  'gmbh',
  'ag',
  'sa',
  'sarl',
  'bv',
  'nv',
  'ooo',
  'oao',
  'zao',
  'pao',
  'ao',
  'isc',
  'the',
  'and',
  'of',
]);

function meaningful(tokens: readonly string[]): string[] {
  const kept = [...new Set(tokens.filter((t) => !NOISE.has(t)))];
  return kept.length > 0 ? kept : [...new Set(tokens)];
}

/** Points taken off for each word of the longer name that has no counterpart in the shorter one. */
const UNPAIRED_PENALTY = 2;

/**
 * The score (0..100) of two names already split into normalised tokens, independent of word order: tokens are
 * paired greedily by their Jaro-Winkler similarity (the best pair first, each token used once), and the paired
 * similarities are averaged over the shorter name, less {@link UNPAIRED_PENALTY} points per word of the longer one
 * left unpaired (a missing middle name or patronymic costs little). A single word against a longer name is
 * averaged over both (one given name alone is not a match for a full name). Legal forms are left out.
 */
export function tokenSetScore(subject: readonly string[], entry: readonly string[]): number {
  const s = meaningful(subject);
  const e = meaningful(entry);
  if (s.length === 0 || e.length === 0) return 0;
  const pairs: { i: number; j: number; sim: number }[] = [];
  for (let i = 0; i < s.length; i++)
    for (let j = 0; j < e.length; j++) pairs.push({ i, j, sim: jaroWinkler(s[i] ?? '', e[j] ?? '') });
  pairs.sort((x, y) => y.sim - x.sim);
  const usedS = new Set<number>();
  const usedE = new Set<number>();
  let sum = 0;
  for (const p of pairs) {
    if (usedS.has(p.i) || usedE.has(p.j)) continue;
    usedS.add(p.i);
    usedE.add(p.j);
    sum += p.sim;
  }
  const shorter = Math.min(s.length, e.length);
  const longer = Math.max(s.length, e.length);
  const score =
    shorter === 1 && longer > 1
      ? (2 * sum) / (s.length + e.length)
      : sum / shorter - ((longer - shorter) * UNPAIRED_PENALTY) / 100;
  return Math.max(0, Math.round(score * 100));
}

/** The score (0..100) of two names as written. */
export function nameScore(a: string, b: string): number {
  return tokenSetScore(nameTokens(a), nameTokens(b));
}

/** A list name the index matches against. */
export interface IndexedName {
  /** The entry it belongs to (its row id). */
  entryId: number;
  wholeName: string;
}

/** A list name that scored at or above the threshold. */
export interface NameMatch extends IndexedName {
  score: number;
}

/**
 * The current list's names, ready to screen against: each distinct token points to the names that contain it, so a
 * screened name is compared in full only with names sharing a token close enough to reach the threshold (an
 * average at or above it needs one pair at or above it).
 */
export class NameIndex {
  private readonly names: { name: IndexedName; tokens: string[] }[] = [];
  private readonly byToken = new Map<string, number[]>();

  constructor(names: Iterable<IndexedName>) {
    for (const name of names) {
      const tokens = nameTokens(name.wholeName);
      if (tokens.length === 0) continue;
      const at = this.names.push({ name, tokens }) - 1;
      for (const token of new Set(tokens)) {
        const list = this.byToken.get(token);
        if (list) list.push(at);
        else this.byToken.set(token, [at]);
      }
    }
  }

  /** How many names the index holds. */
  get size(): number {
    return this.names.length;
  }

  /** The list names that `name` matches at or above `threshold` (0..100), best first, one per entry. */
  match(name: string, threshold: number): NameMatch[] {
    const tokens = nameTokens(name);
    if (tokens.length === 0) return [];
    const candidates = new Set<number>();
    for (const [token, at] of this.byToken) {
      if (!tokens.some((t) => jaroWinkler(t, token) * 100 >= threshold)) continue;
      for (const i of at) candidates.add(i);
    }
    const best = new Map<number, NameMatch>();
    // In list order, so that of equal scores the entry's first name (its main one) is the one shown.
    for (const i of [...candidates].sort((a, b) => a - b)) {
      const candidate = this.names[i];
      if (!candidate) continue;
      const score = tokenSetScore(tokens, candidate.tokens);
      if (score < threshold) continue;
      const seen = best.get(candidate.name.entryId);
      if (!seen || seen.score < score) best.set(candidate.name.entryId, { ...candidate.name, score });
    }
    return [...best.values()].sort((a, b) => b.score - a.score);
  }
}
