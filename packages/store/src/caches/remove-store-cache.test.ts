import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { removeStoreCache } from "./remove-store-cache.js";

describe("removeStoreCache", () => {
  it("removes .cache with what it held, and nothing else of the store", () => {
    const store = makeTempDir();
    mkdirSync(join(store, ".cache/sessions"), { recursive: true });
    writeFileSync(join(store, ".cache/injection-1a2b3c4d.json"), "12345");
    writeFileSync(join(store, ".cache/sessions/s1.txt"), "abc");
    writeFileSync(join(store, "heuristics.md"), "### Heuristic: Keep me\n");
    expect(removeStoreCache(store)).toEqual({ path: join(store, ".cache"), files: 2, bytes: 8 });
    expect([existsSync(join(store, ".cache")), existsSync(join(store, "heuristics.md"))]).toEqual([false, true]);
    expect(removeStoreCache(store)).toBeNull();
  });

  it("refuses to follow a link where the cache should be", () => {
    const store = makeTempDir();
    const elsewhere = makeTempDir();
    writeFileSync(join(elsewhere, "precious.txt"), "x");
    symlinkSync(elsewhere, join(store, ".cache"));
    expect(() => removeStoreCache(store)).toThrow(/will not remove .*\.cache: it is not a folder/);
    expect(existsSync(join(elsewhere, "precious.txt"))).toBe(true);
  });
});
