/** A problem that did not stop the read: a file skipped, a value replaced by its default. */
export interface StoreWarning {
  path: string;
  message: string;
  line?: number;
}

/**
 * One line for a person: "PATH:LINE: message".
 *
 * @example
 * formatWarning({ path: ".claude/iflow-dev.local.md", line: 3, message: "…" });
 * // ".claude/iflow-dev.local.md:3: …"
 */
export function formatWarning(warning: StoreWarning): string {
  return `${warning.path}${warning.line === undefined ? "" : `:${warning.line}`}: ${warning.message}`;
}
