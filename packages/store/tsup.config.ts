import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

// What the cached injection is computed by: the sources of the parser, the ranker and the store
// (tests left out). Its hash salts the cache's fingerprint (`MEMORY_CACHE_SALT`) in every reader.
function sourcesHash(): string {
  const hash = createHash("sha256");
  for (const folder of ["../parser/src", "../ranker/src", "src"]) {
    const files = (readdirSync(folder, { recursive: true }) as string[]).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.includes("__fixtures__")).sort();
    for (const file of files) hash.update(`${folder}/${file}\n`).update(readFileSync(join(folder, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

export default defineConfig({
  entry: ["src/index.ts"],
  define: { __IFLOW_MEMORY_VERSION__: JSON.stringify(version), __IFLOW_MEMORY_CACHE_CODE__: JSON.stringify(sourcesHash()) },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
