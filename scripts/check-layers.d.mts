/** A broken layering rule: its name, the importing file, and what it imported (or the cycle). */
export interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** The violations of the layering rules in the repository (or test tree) at `baseDir`. */
export function checkLayers(baseDir: string): Promise<Violation[]>;
