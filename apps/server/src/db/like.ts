/**
 * A LIKE pattern matching any text that contains `text`, whose `%`, `_` and `\` match themselves (escaped with
 * `\`, PostgreSQL's default escape): a user's search text never acts as a wildcard.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
