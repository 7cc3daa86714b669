// Joins source/contexts.json + source/labels.json into ../dev.json and ../heldout.json.
// Entry ids (A01, H12, P95, ...) are resolved to contentHash/name through source/entry-index.tsv,
// and each row of that index is checked against the list command's JSON.
// Usage: node eval/relevance/source/build.mjs /tmp/labels-entries.json
// (the JSON comes from: iflow-memory list --project-root <bank> --global-store <store> --scope all --json)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const listPath = process.argv[2];
if (!listPath) { console.error("usage: node build.mjs <list.json>"); process.exit(2); }
const entries = JSON.parse(readFileSync(listPath, "utf8"));
const byHash = new Map(entries.map((e) => [e.contentHash, e]));

const index = new Map();
for (const line of readFileSync(join(here, "entry-index.tsv"), "utf8").split("\n")) {
  if (!line || line.startsWith("#")) continue;
  const [id, hash, , name] = line.split("\t");
  const e = byHash.get(hash);
  if (!e || e.name !== name) throw new Error(`index row ${id} ${hash} does not match the list output`);
  index.set(id, { hash, name });
}

const { contexts } = JSON.parse(readFileSync(join(here, "contexts.json"), "utf8"));
const { labels } = JSON.parse(readFileSync(join(here, "labels.json"), "utf8"));
// A second held-out set, written and labelled later the same way (contexts first, then labels).
if (existsSync(join(here, "contexts-heldout2.json"))) {
  contexts.push(...JSON.parse(readFileSync(join(here, "contexts-heldout2.json"), "utf8")).contexts);
  Object.assign(labels, JSON.parse(readFileSync(join(here, "labels-heldout2.json"), "utf8")).labels);
}

const description =
  "Relevance set for iflow-memory, labelled by hand. 54 contexts (40 dev, 14 heldout) of four kinds " +
  "(session prompts, feature title + spec summary, branch with changed files and commit subjects, workflow phase + topic) " +
  "were written first, realistic for work on a Claude Code plugin with skills/agents/hooks, a Python MCP/semantic-memory " +
  "backend and a specify-to-finish feature workflow, plus ordinary software chores where nothing in the bank applies. " +
  "Then, for each context, every one of the 265 distinct entries (the bank's 265; the global store's 18 entries all " +
  "share a contentHash with a bank entry, so labels by hash cover both) was read and judged by meaning, with no search or scoring code: grade 2 = " +
  "directly applies and would change what the agent does, grade 1 = useful related background; entries merely on the " +
  "same broad topic, and process advice that would apply equally to every context of a phase, were left out (one exception: " +
  "the tasks.md heading-format rule is grade 1 for the tasks-phase context, since a wrong format breaks the implement step). " +
  "A second pass went entry by entry across all contexts to catch omissions. Contexts were not edited after labelling.";

const out = { dev: [], heldout: [], heldout2: [] };
for (const c of contexts) {
  const l = labels[c.id];
  if (!l) throw new Error(`no labels for ${c.id}`);
  const seen = new Set();
  const ls = l.labels.map(([id, grade]) => {
    const e = index.get(id);
    if (!e) throw new Error(`${c.id}: unknown entry id ${id}`);
    if (seen.has(id)) throw new Error(`${c.id}: duplicate ${id}`);
    seen.add(id);
    return { hash: e.hash, name: e.name, grade };
  });
  out[c.split].push({ id: c.id, kind: c.kind, query: c.query, labels: ls, rationale: l.rationale });
}
const description2 =
  "A second held-out set for iflow-memory's relevance, written after the first was reported, by another labeller, in the same way: " +
  "20 contexts, 5 of each kind, written and saved first; then every one of the 265 distinct entries judged for each by meaning, " +
  "with no search or scoring code (grade 2 = directly applies, grade 1 = useful background), and a second pass entry by entry. " +
  "Never tuned on.";
for (const split of ["dev", "heldout", "heldout2"]) {
  if (split === "heldout2" && out.heldout2.length === 0) continue;
  const doc = {
    description: split === "heldout2" ? description2 : description,
    bank: "test/fixtures/corpora/iflow-kb-2026-04",
    globalStore: "test/fixtures/corpora/global-store-example",
    contexts: out[split],
  };
  writeFileSync(join(here, "..", `${split === "heldout2" ? "heldout-2" : split}.json`), JSON.stringify(doc, null, 2) + "\n");
  console.log(`${split}.json: ${out[split].length} contexts`);
}
