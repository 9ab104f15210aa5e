import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/** The WCAG 2.1 A and AA rule sets of issue #19. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'] as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One element that failed a rule: where (a CSS selector) and why (axe's summary). */
export interface FailedNode {
  target: string;
  summary: string;
}

/** One failed axe rule and the elements that failed it. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: FailedNode[];
}

/**
 * Runs axe-core on the whole page with the WCAG 2.1 AA tags and returns its violations. The source is evaluated
 * through the DevTools protocol (the app's Content-Security-Policy forbids inline script tags), once per document.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async (tags) => {
      const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe;
      const results = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
    },
    [...WCAG_TAGS],
  );
}

/** The violations a screen must not have: serious or critical. */
export function blocking(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable report of violations for a failed assertion. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.slice(0, 10).map((n) => `  ${n.target}\n    ${n.summary.replaceAll('\n', ' ')}`);
      const more = v.nodes.length > 10 ? [`  ...and ${v.nodes.length - 10} more`] : [];
      return [`${v.impact} ${v.id}: ${v.help}`, ...nodes, ...more].join('\n');
    })
    .join('\n');
}
