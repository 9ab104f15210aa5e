/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Prints a table with aligned columns. */
export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  console.log(`\n${title}`);
  for (const [n, row] of cells.entries()) {
    console.log(
      row.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/** Formats a rate with thousands separators. */
export const rate = (n: number) => Math.round(n).toLocaleString('en-US');
