import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareSessionInjection } from "../prepare-session-injection.js";
import { CODE_CACHE_MAGIC, codeCacheFile, codeCacheOrigin, type CodeCacheNode } from "./code-cache-file.js";
import { entryFileCachePath } from "./entry-file-cache.js";
import { injectionCachePath, rankingCachePath, storeCacheDir, writeCachedInjection } from "./injection-cache.js";
import { CACHE_MAX_AGE_MS, pruneStoreCache } from "./prune-store-cache.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-11-26T12:00:00Z");

let store: string;
let cache: string;

beforeEach(() => {
  store = mkdtempSync(join(tmpdir(), "iflow-prune-"));
  cache = storeCacheDir(store);
  mkdirSync(join(cache, "files"), { recursive: true });
  mkdirSync(join(cache, "sessions"));
});
afterEach(() => rmSync(store, { recursive: true, force: true }));

const THIS_NODE: CodeCacheNode = { version: process.version, arch: process.arch };

// A code cache of the bundle at `bundle` made by `node`, written as the hook adapter writes one
// (`codeCacheKey`'s key), at `path`, last read and written `ageMs` ago (a year).
function codeCache(bundle: string, node = THIS_NODE, ageMs = 365 * DAY, path = codeCacheFile(cache, bundle, node)): string {
  const key = JSON.stringify([node.version, node.arch, bundle, "24:1:1:7:2049"]);
  return cacheFile(path, ageMs, ageMs, `${CODE_CACHE_MAGIC}${JSON.stringify({ key, length: 3, modified: 946684800 })}\nV8!`);
}

// A file last read and written `ageMs` before NOW (or read at `readAgeMs`).
function cacheFile(path: string, ageMs: number, readAgeMs = ageMs, text = "{}\n"): string {
  writeFileSync(path, text);
  utimesSync(path, (NOW - readAgeMs) / 1000, (NOW - ageMs) / 1000);
  return path;
}

describe("pruneStoreCache", () => {
  it("removes the project and file caches no session used for a month, and keeps the rest", () => {
    const old = CACHE_MAX_AGE_MS + DAY;
    const gone = [
      cacheFile(join(cache, "injection-1a2b3c4d.json"), old),
      cacheFile(join(cache, "injection-1a2b3c4d.plan.json"), old),
      cacheFile(join(cache, "injection-1a2b3c4d.ranking.json"), old),
      cacheFile(join(cache, "injection-1a2b3c4d.json.refreshing"), old),
      cacheFile(join(cache, "git-log-1a2b3c4d.json"), old),
      cacheFile(join(cache, "inject-5e6f7a8b.json"), old),
      cacheFile(join(cache, "files", "785b0f14-8b58bc7c.json"), old),
      // What writes that never finished left, after a day.
      cacheFile(join(cache, "injection-9f9f9f9f.json.iflow-3a2b1a21894ee42e.tmp"), 2 * DAY),
      cacheFile(join(cache, "code-session-start-run.bin.3a2b18c4d5e.tmp"), 2 * DAY),
      cacheFile(join(cache, "files", "785b0f14-8b58bc7c.json.iflow-77aa.tmp"), 2 * DAY),
      // V8's code cache as earlier versions named it (one per bundle), read by none now, however recent.
      cacheFile(join(cache, "code-session-start-run.bin"), 0),
    ];
    const kept = [
      // Used within the month: written, or only read (its access time).
      cacheFile(join(cache, "injection-99999999.json"), DAY),
      cacheFile(join(cache, "files", "cab396b5-cdb63eef.json"), old, 3 * DAY),
      cacheFile(join(cache, "injection-99999999.json.iflow-aa.tmp"), DAY / 2),
      // Not the caches it knows: the sessions' ledgers, a file of the user's.
      cacheFile(join(cache, "sessions", "5f0c.txt"), old),
      cacheFile(join(cache, "notes.md"), old),
      cacheFile(join(cache, "files", "mine.json"), old),
    ];
    // A link is never followed nor removed, whatever it points at.
    const target = cacheFile(join(store, "outside-1a2b3c4d.json"), old);
    symlinkSync(target, join(cache, "injection-abcdef01.json"));

    expect(pruneStoreCache(cache, NOW)).toBe(gone.length);
    for (const path of gone) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(existsSync(path), path).toBe(true);
    expect(existsSync(target)).toBe(true);
    expect(readdirSync(cache)).toContain("injection-abcdef01.json");
  });

  it("removes V8's code caches whose bundle is gone, however recent, and keeps those of the bundles still there, however old", () => {
    const installs = ["plugin", "package"].map((name) => {
      const bundle = join(store, name, "session-start-run.cjs");
      mkdirSync(join(store, name));
      writeFileSync(bundle, "exports.run = () => 0;\n");
      return { bundle, cache: codeCache(bundle) };
    });
    // A cache whose header names no bundle (damaged) is of no use either.
    const damaged = codeCacheFile(cache, join(store, "other", "session-start-run.cjs"));
    writeFileSync(damaged, `${CODE_CACHE_MAGIC}{"key":"[1,2]"`);
    rmSync(installs[0]!.bundle);

    expect(pruneStoreCache(cache, NOW)).toBe(2);
    expect([existsSync(installs[0]!.cache), existsSync(installs[1]!.cache), existsSync(damaged)]).toEqual([false, true, false]);
  });

  it("names a code cache per install of a bundle, whose header names the bundle", () => {
    const bundles = ["/opt/iflow-memory/hooks/session-start-run.cjs", "/home/ada/.claude/plugins/cache/iflow-memory/hooks/session-start-run.cjs", "/opt/iflow-mémoire/hooks/session-start-run.cjs"];
    const names = bundles.map((bundle) => codeCacheFile(cache, bundle));
    expect(names.map((name) => /^code-session-start-run-[0-9a-f]{8}\.bin$/.test(name.slice(cache.length + 1)))).toEqual([true, true, true]);
    expect(new Set(names).size).toBe(3);
    expect(bundles.map((bundle) => codeCacheOrigin(codeCache(bundle)))).toEqual(bundles.map((bundle) => ({ bundle, node: THIS_NODE })));
  });

  it("names a code cache per node too, so that two nodes taking turns on a store each keep theirs", () => {
    const bundle = "/opt/iflow-memory/hooks/session-start-run.cjs";
    const nodes = [THIS_NODE, { version: "v24.21.0", arch: process.arch }, { version: "v22.23.3", arch: process.arch }, { version: process.version, arch: "arm64" }];
    const names = nodes.map((node) => codeCacheFile(cache, bundle, node));
    expect(new Set(names).size).toBe(4);
    expect(codeCacheFile(cache, bundle)).toBe(names[0]);
    expect(nodes.map((node) => codeCacheOrigin(codeCache(bundle, node)))).toEqual(nodes.map((node) => ({ bundle, node })));
  });

  it("removes another node's code caches no session used for a month, and the ones named by the bundle's path alone; keeps this node's", () => {
    const bundle = join(store, "plugin", "session-start-run.cjs");
    mkdirSync(join(store, "plugin"));
    writeFileSync(bundle, "exports.run = () => 0;\n");
    const old = CACHE_MAX_AGE_MS + DAY;
    const upgradedFrom = { version: "v20.11.1", arch: process.arch };
    const otherArch = { version: process.version, arch: process.arch === "arm64" ? "x64" : "arm64" };
    // As the versions before named a code cache: a tag (FNV-1a) of the bundle's path alone.
    let tag = 0x811c9dc5;
    for (let at = 0; at < bundle.length; at++) tag = Math.imul(tag ^ bundle.charCodeAt(at), 0x01000193);
    const pathAlone = join(cache, `code-session-start-run-${(tag >>> 0).toString(16).padStart(8, "0")}.bin`);
    const gone = [codeCache(bundle, upgradedFrom, old), codeCache(bundle, otherArch, old), codeCache(bundle, THIS_NODE, DAY, pathAlone)];
    const kept = [codeCache(bundle, THIS_NODE, old), codeCache(bundle, { version: "v24.21.0", arch: process.arch }, DAY)];

    expect(pruneStoreCache(cache, NOW)).toBe(gone.length);
    expect([...gone, ...kept].map((path) => existsSync(path))).toEqual([false, false, false, true, true]);
  });

  it("looks at most once a day", () => {
    const old = CACHE_MAX_AGE_MS + DAY;
    cacheFile(join(cache, "injection-1a2b3c4d.json"), old);
    expect(pruneStoreCache(cache, NOW)).toBe(1);
    const later = cacheFile(join(cache, "injection-2b3c4d5e.json"), old);
    expect(pruneStoreCache(cache, NOW + DAY - 60_000)).toBe(0);
    expect(existsSync(later)).toBe(true);
    expect(pruneStoreCache(cache, NOW + DAY + 60_000)).toBe(1);
    expect(existsSync(later)).toBe(false);
    // A marker from the future (the clock set back) does not hold it off.
    const again = cacheFile(join(cache, "injection-3c4d5e6f.json"), old);
    expect(pruneStoreCache(cache, NOW)).toBe(1);
    expect(existsSync(again)).toBe(false);
  });

  it("does nothing, and throws nothing, where there is no cache folder", () => {
    expect(pruneStoreCache(join(store, "missing", ".cache"), NOW)).toBe(0);
    expect(existsSync(join(store, "missing"))).toBe(false);
  });
});

describe("writeCachedInjection", () => {
  it("prunes the cache folder where it writes, and keeps what it wrote", async () => {
    const project = mkdtempSync(join(tmpdir(), "iflow-prune-project-"));
    try {
      const bank = join(project, "docs", "knowledge-bank");
      mkdirSync(bank, { recursive: true });
      const heuristics = join(bank, "heuristics.md");
      writeFileSync(heuristics, "# Heuristics\n\n### Heuristic: Retry idempotent calls only\nA retried POST charged twice.\n- Observation count: 2\n");
      // Settled for the cache: its clock runs ten seconds ahead.
      const fileCache = { dir: cache, salt: "test", now: () => Date.now() + 10_000 };
      const injection = await prepareSessionInjection({ projectRoot: project, globalStoreDir: store, fileCache });
      const keptFile = entryFileCachePath(fileCache, heuristics);
      expect(existsSync(keptFile)).toBe(true);
      // A month and more ago: the caches of a project since deleted.
      const old = (Date.now() - CACHE_MAX_AGE_MS - DAY) / 1000;
      const leftover = join(cache, "injection-0badc0de.json");
      writeFileSync(leftover, "{}");
      utimesSync(leftover, old, old);

      const path = injectionCachePath(store, project);
      await writeCachedInjection(path, "fingerprint", injection);
      expect(existsSync(leftover)).toBe(false);
      expect(existsSync(path)).toBe(true);
      expect(existsSync(rankingCachePath(path))).toBe(true);
      expect(existsSync(keptFile)).toBe(true);
      expect(statSync(join(cache, ".pruned")).isFile()).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
