/** One commit as `parseGitLog` reads it. */
export interface LoggedCommit {
  subject: string;
  files: string[];
}

/** The `git log` format `parseGitLog` reads: a record separator, then the subject. */
export const GIT_LOG_FORMAT = "--format=%x1e%s";

/**
 * The commits in `git log -z --format=%x1e%s [--name-only]` output, newest first as git wrote
 * them, each with the paths it changed (relative to the repository's top folder).
 *
 * @example
 * parseGitLog("\x1eRetry embedding calls\0\nsemantic_memory/retry.py\0\x1eAdd timeouts\0");
 * // [{ subject: "Retry embedding calls", files: ["semantic_memory/retry.py"] }, { subject: "Add timeouts", files: [] }]
 */
export function parseGitLog(output: string): LoggedCommit[] {
  return output
    .split("\x1e")
    .slice(1)
    .map((record) => {
      const [subject = "", ...rest] = record.split("\0");
      const files = rest.map((file) => file.replace(/^\n/, "")).filter((file) => file !== "");
      return { subject: subject.trim(), files };
    });
}
