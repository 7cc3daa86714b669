// Runs promotions in a loop, as many sessions would: node promote-loop.mjs STORE PROJECT_ROOT ROUNDS [FIRST_FEATURE]
import { promoteEntries } from "../../packages/store/dist/index.js";

const [store, projectRoot, rounds, first = "1"] = process.argv.slice(2);
process.stdout.write("ready\n"); // loaded: the promotions start now
for (let round = 0; round < Number(rounds); round++) {
  await promoteEntries({ projectRoot, globalStoreDir: store, feature: String(Number(first) + round), selection: { kind: "all" } });
}
