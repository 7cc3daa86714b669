/** Whether a thrown value is a Node.js system error with this `code` (ENOENT, EEXIST, …). */
export function hasErrorCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

/** A thrown value's message, for a one-line report. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
