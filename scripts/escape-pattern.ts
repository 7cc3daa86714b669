// Shared by the packages' tsup configs (loaded by tsup, never shipped).

/**
 * `text` as it reads in a regular expression: its special characters (and "/") escaped.
 *
 * @example
 * new RegExp(`^${escapePattern("./session-start-yaml.cjs")}$`);
 */
export function escapePattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
