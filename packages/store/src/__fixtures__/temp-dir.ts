import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/**
 * A fresh temporary directory, removed when the current test finishes (pass or fail): a suite run
 * leaves nothing in the system's temporary folder. Call it inside a test.
 *
 * @example
 * const root = tempDir("iflow-file-cache-");
 */
export function tempDir(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(directory, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 }));
  return directory;
}
