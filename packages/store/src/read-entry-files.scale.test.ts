import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readGlobalStore } from "./read-global-store.js";
import { readKnowledgeBank } from "./read-knowledge-bank.js";

const ENTRIES = 150_000;

function bank(directory: string, prefix = ""): void {
  mkdirSync(directory, { recursive: true });
  const text = Array.from({ length: ENTRIES }, (_, index) => `### Heuristic: ${prefix}Entry ${index}\nLesson number ${index} about topic ${index % 97}.\n- Observation count: ${1 + (index % 5)}\n`).join("\n");
  writeFileSync(join(directory, "heuristics.md"), text);
}

describe("readKnowledgeBank and readGlobalStore (scale)", () => {
  it("read 150,000 entries of one file without a crash", async () => {
    const root = makeTempDir();
    bank(join(root, "docs/knowledge-bank"));
    bank(join(root, "store"), "Global ");
    const [local, global] = await Promise.all([readKnowledgeBank(root), readGlobalStore(join(root, "store"))]);
    expect([local.entries.length, local.entries.at(-1)!.name, global.entries.length, global.entries.at(-1)!.name]).toEqual([ENTRIES, `Entry ${ENTRIES - 1}`, ENTRIES, `Global Entry ${ENTRIES - 1}`]);
  }, 60_000);
});
