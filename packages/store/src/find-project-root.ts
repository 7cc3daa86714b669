import { stat } from "node:fs/promises";
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
    if ((await exists(join(directory, ".git"))) || (await exists(join(directory, "docs", "knowledge-bank")))) {
      return directory;
    }
    if (dirname(directory) === directory) return first;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
