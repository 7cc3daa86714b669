export { RuntimeError, UsageError } from "./errors.js";
export type { CliIO } from "./io.js";
export { run } from "./run.js";
