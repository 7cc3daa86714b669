import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// The built package, in a process of its own: the cache is written as that process exits.
const HOOK_ADAPTER = pathToFileURL(join(REPO_ROOT, "packages/hook-adapter/dist/index.js")).href;

// A file of one function that its runs call and one that none does (a few kilobytes of code).
function bundle(folder: string): string {
  const path = join(folder, "bundle.cjs");
  const uncalled = Array.from({ length: 200 }, (_, index) => `  total += values[${index}] * ${index + 1} + String(values[${index}]).length;`).join("\n");
  writeFileSync(path, `exports.called = (value) => value * 2;\nexports.uncalled = (values) => {\n  let total = 0;\n${uncalled}\n  return total;\n};\n`);
  return path;
}

async function load(path: string, cacheFile: string, eager: boolean): Promise<[number | null, string, string]> {
  const script = `import { createRequire } from "node:module";
import { requireWithCodeCacheFile } from ${JSON.stringify(HOOK_ADAPTER)};
const loaded = requireWithCodeCacheFile(${JSON.stringify(path)}, ${JSON.stringify(cacheFile)}, createRequire(${JSON.stringify(path)}), undefined, { eager: ${eager} });
console.log(loaded.called(21));`;
  const file = join(makeTempDir(), "load.mjs");
  writeFileSync(file, script);
  const { code, stdout, stderr } = await runNode(file, [], {});
  return [code, stdout, stderr];
}

const cacheData = (cacheFile: string): Buffer => {
  const bytes = readFileSync(cacheFile);
  return bytes.subarray(bytes.indexOf(10, bytes.indexOf(10) + 1) + 1);
};

describe("requireWithCodeCacheFile", () => {
  it("keeps what the writing run compiled, or with eager every function of the file; V8 takes either at the next run", async () => {
    const folder = makeTempDir();
    const path = bundle(folder);
    const sizes: Record<string, number> = {};
    for (const eager of [false, true]) {
      const cacheFile = join(folder, `code-${eager ? "eager" : "lazy"}.bin`);
      const first = await load(path, cacheFile, eager);
      const written = statSync(cacheFile).mtimeMs;
      sizes[eager ? "eager" : "lazy"] = cacheData(cacheFile).length;
      // The next run loads it: V8 accepts it (a rejected cache would be written again as that run exits).
      const second = await load(path, cacheFile, eager);
      expect([first, second]).toEqual([0, 0].map(() => [0, "42\n", ""]));
      expect(statSync(cacheFile).mtimeMs).toBe(written);
    }
    // The function no run called is in the eager cache alone: some kilobytes of bytecode.
    expect(sizes.eager! - sizes.lazy!).toBeGreaterThan(4_000);
  });
});
