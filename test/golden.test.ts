import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, CORPORA_DIR, GOLDEN_DIR, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// `NAME.limitN.md` holds the exact stdout of the original memory.py on a real knowledge bank;
// `+global` means a copy of the global-store example beside it (see test/fixtures/golden/README.md).
const cases = readdirSync(GOLDEN_DIR)
  .map((file) => /^(?<bank>[\w-]+?)(?<global>\+global)?\.limit(?<limit>-?\d+)\.md$/.exec(file))
  .filter((match) => match !== null)
  .map((match) => ({ file: match[0], bank: match.groups!.bank!, global: match.groups!.global !== undefined, limit: match.groups!.limit! }));

describe("iflow-memory inject (golden outputs of the original memory.py)", () => {
  it("has every golden case to check", () => {
    expect(cases.length).toBe(11);
  });

  it.each(cases)("reproduces $file byte for byte and writes its tracking file", async ({ file, bank, global, limit }) => {
    const base = makeTempDir();
    const projectRoot = copyCorpus(bank, base);
    const store = join(base, "store");
    if (global) cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
    const result = await runNode(CLI_BIN, ["inject", "--project-root", projectRoot, "--limit", limit, "--global-store", store], {
      env: { HOME: join(base, "home") },
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(result.stdout).toBe(readFileSync(join(GOLDEN_DIR, file), "utf8"));

    const expected = JSON.parse(readFileSync(join(GOLDEN_DIR, file.replace(/\.md$/, ".tracking.json")), "utf8")) as Record<string, unknown>;
    const tracking = JSON.parse(readFileSync(join(store, ".last-injection.json"), "utf8")) as Record<string, unknown>;
    // Extra fields of ours (chars, estimated_tokens, …) are allowed; every original field must match.
    expect(Object.fromEntries(Object.keys(expected).map((key) => [key, tracking[key]]))).toEqual(expected);
    expect(tracking.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});
