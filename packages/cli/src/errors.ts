/** The command line was wrong: exit 2. */
export class UsageError extends Error {
  readonly code = "USAGE";
}

/** The command was right but could not be carried out: exit 1. */
export class RuntimeError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
