import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The nearest directory at or above `start` that holds `.git` or `docs/knowledge-bank`;
 * `start` itself when there is none.
 *
 * @example
 * await findProjectRoot("/work/webshop/src/cart"); // "/work/webshop"
 */
export async function findProjectRoot(start: string): Promise<string> {
  const first = resolve(start);
  for (let directory = first; ; directory = dirname(directory)) {
    // Synchronous on purpose: at a session start, loading fs/promises costs more than these checks.
    if (existsSync(join(directory, ".git")) || existsSync(join(directory, "docs", "knowledge-bank"))) {
      return directory;
    }
    if (dirname(directory) === directory) return first;
  }
}
