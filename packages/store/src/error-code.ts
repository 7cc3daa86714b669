/** Whether a thrown value is a Node.js system error with this `code` (ENOENT, EEXIST, …). */
export function hasErrorCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

// What a system error means to a person, for the codes a write meets in practice.
const PLAIN: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EISDIR: "a directory is in the way",
  ENOTDIR: "a file is in the way of a folder",
  EEXIST: "it already exists",
  EMFILE: "too many files are open",
  ELOOP: "it is a loop of symbolic links",
  ENAMETOOLONG: "the name is too long",
  EIO: "the disk reported an input/output error",
};

/**
 * A thrown value's message, for a one-line report: a system error in plain words with its code
 * (`the disk is full (ENOSPC)`), anything else its message's first line.
 *
 * @example
 * errorMessage(Object.assign(new Error("EROFS: read-only file system, open '/x'"), { code: "EROFS" })); // "the file system is read-only (EROFS)"
 */
export function errorMessage(error: unknown): string {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string" && Object.hasOwn(PLAIN, code)) return `${PLAIN[code]} (${code})`;
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
