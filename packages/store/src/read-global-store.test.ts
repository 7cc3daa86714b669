import { describe, expect, it } from "vitest";
import { resolveGlobalStoreDir } from "./read-global-store.js";
import { tempDir } from "./__fixtures__/temp-dir.js";

describe("resolveGlobalStoreDir", () => {
  it("prefers the flag, then IFLOW_MEMORY_HOME, then ~/.claude/iflow/memory", () => {
    const env = { HOME: "/home/ada", IFLOW_MEMORY_HOME: "/srv/memory" };
    expect([
      resolveGlobalStoreDir({ flag: "/tmp/store", env }),
      resolveGlobalStoreDir({ env }),
      resolveGlobalStoreDir({ env: { HOME: "/home/ada", IFLOW_MEMORY_HOME: "" } }),
    ]).toEqual(["/tmp/store", "/srv/memory", "/home/ada/.claude/iflow/memory"]);
  });
});

describe("readGlobalStore", () => {
  it("injects a global entry with its secret replaced by [REDACTED], with a warning that does not repeat the secret", async () => {
    const { writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { readGlobalStore } = await import("./read-global-store.js");
    const store = tempDir("iflow-store-");
    const secret = `ghp_${"Zz09".repeat(9)}`;
    writeFileSync(join(store, "heuristics.md"), `# Global Heuristics\n\n### Heuristic: Tokens\nRotate ${secret} monthly.\n- Tags: universal\n`);
    const { entries, warnings } = await readGlobalStore(store);
    expect(entries[0]!.description).toBe("Rotate [REDACTED] monthly.");
    expect(warnings.map((warning) => warning.message)).toEqual(['"Tokens" contains a secret (github-token); injected with [REDACTED] in its place — remove it from the store']);
    expect(JSON.stringify(warnings)).not.toContain(secret);
  });
});
