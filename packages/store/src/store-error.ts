/**
 * A store operation that could not be carried out. `code` is stable, for programs; the message
 * is one line for a person: what failed, why, and what to do.
 *
 * @example
 * throw new StoreError("STORE_LOCKED", "cannot write the global store: another process holds its lock; try again");
 */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
}

export type StoreErrorCode = "STORE_LOCKED" | "STORE_NOT_DIRECTORY" | "STORE_UNREADABLE" | "STORE_WRITE_FAILED" | "LESSON_NOT_FOUND" | "NO_RUN_ID" | "SECRET_FOUND" | "ENTRY_NOT_FOUND" | "GIT_FAILED" | "INVALID_MEMORY";
