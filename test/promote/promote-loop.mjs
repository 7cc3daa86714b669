// Runs promotions in a loop, as many sessions would: node promote-loop.mjs STORE PROJECT_ROOT ROUNDS [FIRST_FEATURE] [new]
// With "new", each round first writes the project's bank anew with one learning per category
// that no round before had ("Round N <category>"), so that each promotion appends to the store.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promoteEntries } from "../../packages/store/dist/index.js";

const [store, projectRoot, rounds, first = "1", mode = "same"] = process.argv.slice(2);
const PREFIX = { "anti-patterns": "Anti-Pattern", heuristics: "Heuristic", patterns: "Pattern" };
process.stdout.write("ready\n"); // loaded: the promotions start now
for (let round = 0; round < Number(rounds); round++) {
  const feature = String(Number(first) + round);
  if (mode === "new") {
    for (const [category, prefix] of Object.entries(PREFIX)) {
      writeFileSync(join(projectRoot, "docs/knowledge-bank", `${category}.md`), `### ${prefix}: Round ${feature} ${category}\nShared lesson of round ${feature} about ${category}, the same everywhere.\n`);
    }
  }
  await promoteEntries({ projectRoot, globalStoreDir: store, feature, selection: { kind: "all" } });
}
