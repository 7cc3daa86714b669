/**
 * One word for a POSIX shell (`sh -c`), which is how Claude Code runs a hook's command: the
 * word in single quotes, each `'` in it written `'\''`. Inside single quotes the shell expands
 * nothing — no `$(…)`, no backticks, no `"` — so an install path of any name stays a path.
 *
 * @example
 * quoteForShell("/opt/it's $(here)/session-start.cjs");
 * // "'/opt/it'\\''s $(here)/session-start.cjs'"
 */
export function quoteForShell(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
