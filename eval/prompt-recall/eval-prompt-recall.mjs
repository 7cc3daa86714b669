#!/usr/bin/env node
// Part of `pnpm eval:relevance`: what the UserPromptSubmit hook adds to a prompt, measured on
// labelled prompts (nothing here is tuned on them). The hook's own planning runs end to end
// (`prepareSessionInjection` on the real bank and global-store example, then `planPromptRecall`
// with an empty session ledger), so that every prompt is judged by what it would add.
//
// Two sets: the mid-session prompts of this folder (`prompts.json`, written before
// `labels.json`), and the first prompts of the relevance set (`../relevance`, dev and held-out).
// For prompts where nothing in the bank applies: how many add nothing, and how many entries the
// others add. For prompts with labels: how many of the entries added are labelled (precision),
// in how many prompts at least one added entry is labelled, and how many of the labelled entries
// are added (recall, out of at most the hook's limit).
// `--write` also puts the figures into BENCHMARKS.md (between the eval-prompt-recall markers).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { planInjection, PROMPT_RECALL_FLOOR, queryTerms } from "../../packages/ranker/dist/index.js";
import { planPromptRecall, PROMPT_RECALL_MAX_CHARS, prepareSessionInjection } from "../../packages/store/dist/index.js";
import { FEBRUARY_BANK, gradesOnBank } from "../small-bank.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, "../..");
const CORPORA = join(REPO_ROOT, "test/fixtures/corpora");

const entryIds = new Map(
  readFileSync(join(REPO_ROOT, "eval/relevance/source/entry-index.tsv"), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.split("\t"))
    .map(([id, hash]) => [id, hash]),
);
const prompts = JSON.parse(readFileSync(join(HERE, "prompts.json"), "utf8")).prompts;
const labels = JSON.parse(readFileSync(join(HERE, "labels.json"), "utf8")).labels;
const midSession = prompts.map((prompt) => {
  const entry = labels[prompt.id];
  if (entry === undefined) throw new Error(`${prompt.id} has no labels in labels.json`);
  const grades = new Map(
    entry.labels.map(([id, grade]) => {
      const hash = entryIds.get(id);
      if (hash === undefined) throw new Error(`${prompt.id}: label ${id} is not an entry of entry-index.tsv`);
      return [hash, grade];
    }),
  );
  return { id: prompt.id, kind: prompt.kind, text: prompt.text, grades };
});
const firstPrompts = (file) =>
  (existsSync(join(REPO_ROOT, "eval/relevance", file)) ? JSON.parse(readFileSync(join(REPO_ROOT, "eval/relevance", file), "utf8")) : { contexts: [] })
    .contexts.filter((context) => context.kind === "prompt")
    .map((context) => ({ id: context.id, kind: "first prompt", text: context.query.text, grades: new Map(context.labels.map((label) => [label.hash, label.grade])) }));

const injection = await prepareSessionInjection({
  projectRoot: join(CORPORA, "iflow-kb-2026-04"),
  globalStoreDir: join(CORPORA, "global-store-example"),
});
const limit = injection.config.promptRecallLimit;
const maxChars = Math.min(PROMPT_RECALL_MAX_CHARS, injection.config.injectionMaxChars);

// What a prompt adds with the hook's floor, or another one: the shipped planning (planPromptRecall
// is planInjection with PROMPT_RECALL_FLOOR, checked below for every prompt).
function added(prompt, floor = PROMPT_RECALL_FLOOR) {
  // A prompt of stop words alone adds nothing (planPromptRecall), whatever the floor.
  if (queryTerms({ text: prompt.text }).size === 0) return [];
  const plan = planInjection({ candidates: injection.ranking.candidates, limit, maxChars, query: { text: prompt.text }, ranking: { index: injection.ranking.index, floor } });
  return [...new Set(plan.entries.map((entry) => entry.contentHash))];
}

// Split fixed before any prompt was run: mid-session prompts with an odd number are dev, even
// ones held-out; the relevance set's first prompts keep their split.
const all = [
  ...midSession.map((prompt) => ({ ...prompt, split: Number(prompt.id.replace(/\D/g, "")) % 2 === 1 ? "dev" : "held-out" })),
  ...firstPrompts("dev.json").map((prompt) => ({ ...prompt, split: "dev" })),
  ...firstPrompts("heldout.json").map((prompt) => ({ ...prompt, split: "held-out" })),
  ...firstPrompts("heldout-2.json").map((prompt) => ({ ...prompt, split: "held-out" })),
];
for (const prompt of all) {
  const shipped = planPromptRecall(injection, prompt.text, new Set()).entries.map((entry) => entry.contentHash);
  if (JSON.stringify([...new Set(shipped)]) !== JSON.stringify(added(prompt))) throw new Error(`${prompt.id}: the evaluation's planning differs from planPromptRecall`);
}

const mean = (values) => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);
// Counts over a set of prompts, each with what it added.
function counts(runs) {
  const empty = runs.filter((run) => run.prompt.grades.size === 0);
  const labelled = runs.filter((run) => run.prompt.grades.size > 0);
  const relevant = (run) => run.added.filter((hash) => run.prompt.grades.has(hash)).length;
  return {
    prompts: runs.length,
    empty: empty.length,
    emptySilent: empty.filter((run) => run.added.length === 0).length,
    emptyAdded: mean(empty.map((run) => run.added.length)),
    labelled: labelled.length,
    labelledSilent: labelled.filter((run) => run.added.length === 0).length,
    addedCount: runs.reduce((sum, run) => sum + run.added.length, 0),
    relevantAdded: runs.reduce((sum, run) => sum + relevant(run), 0),
    precision: (() => {
      const total = labelled.reduce((sum, run) => sum + run.added.length, 0);
      return total === 0 ? Number.NaN : labelled.reduce((sum, run) => sum + relevant(run), 0) / total;
    })(),
    hit: labelled.filter((run) => relevant(run) > 0).length,
    recall: mean(labelled.map((run) => relevant(run) / Math.min(limit, run.prompt.grades.size))),
    possible: labelled.reduce((sum, run) => sum + Math.min(limit, run.prompt.grades.size), 0),
  };
}
// What tuning maximises: F0.5 over every entry added (to any prompt, nothing-applies ones
// included) against at most `limit` labelled entries per prompt — precision counts double, since
// an entry that does not apply costs every later turn of the session its context.
function objective(runs) {
  const c = counts(runs);
  const precision = c.addedCount === 0 ? 0 : c.relevantAdded / c.addedCount;
  const recall = c.possible === 0 ? 0 : c.relevantAdded / c.possible;
  return precision + recall === 0 ? 0 : (1.25 * precision * recall) / (0.25 * precision + recall);
}

function* floors() {
  for (const minimumKnownShare of [0.6, 0.7, 0.8])
    for (const minimum of [0.64, 0.96, 1.28, 1.6])
      for (const relativeToBest of [0.1, 0.3, 0.5, 0.7])
        for (const minimumTerms of [1, 2])
          for (const minimumCoverage of [0.1, 0.2, 0.3]) yield { minimumKnownShare, minimum, relativeToBest, minimumTerms, minimumCoverage };
}
const grid = [...floors()];
// What each floor adds to each prompt, computed once.
const addedBy = new Map(grid.map((floor) => [floor, new Map(all.map((prompt) => [prompt, added(prompt, floor)]))]));
const runsOf = (prompts, floor) => prompts.map((prompt) => ({ prompt, added: floor === PROMPT_RECALL_FLOOR ? added(prompt) : addedBy.get(floor).get(prompt) }));
function tune(prompts) {
  let best = null;
  for (const floor of grid) {
    const score = objective(runsOf(prompts, floor));
    if (best === null || score > best.score) best = { floor, score };
  }
  return best.floor;
}
const dev = all.filter((prompt) => prompt.split === "dev");
const heldout = all.filter((prompt) => prompt.split === "held-out");
const FOLDS = 5;
const cvRuns = Array.from({ length: FOLDS }, (_, fold) => {
  const test = dev.filter((_, at) => at % FOLDS === fold);
  const floor = tune(dev.filter((_, at) => at % FOLDS !== fold));
  return runsOf(test, floor);
}).flat();
const tunedOnDev = tune(dev);

const format = (value, digits = 2) => (Number.isNaN(value) ? "—" : value.toFixed(digits));
let table =
  "| floor | prompts | count | nothing applies: add nothing | nothing applies: entries added (mean) | labelled: add nothing | labelled: share of added entries that apply | labelled: at least one that applies added | labelled: recall (of at most 5) |\n|---|---|---|---|---|---|---|---|---|\n";
const row = (floorName, setName, runs) => {
  const result = counts(runs);
  if (process.argv.includes("--verbose")) {
    for (const run of runs) console.error(`${floorName} ${run.prompt.id} (${run.prompt.grades.size} labelled): ${run.added.map((hash) => `${hash}${run.prompt.grades.has(hash) ? "+" : ""}`).join(" ") || "nothing"}`);
  }
  table +=
    `| ${floorName} | ${setName} | ${result.prompts} | ${result.emptySilent} of ${result.empty} | ${format(result.emptyAdded)} | ${result.labelledSilent} of ${result.labelled} | ` +
    `${format(result.precision)} | ${result.hit} of ${result.labelled} | ${format(result.recall)} |\n`;
};
for (const kind of ["housekeeping", "follow-up", "specific", "first prompt"]) row("shipped", `${kind}, dev and held-out`, runsOf(all.filter((prompt) => prompt.kind === kind), PROMPT_RECALL_FLOOR));
row("shipped", "dev", runsOf(dev, PROMPT_RECALL_FLOOR));
row("cross-validated on dev", "dev", cvRuns);
row("shipped", "held-out", runsOf(heldout, PROMPT_RECALL_FLOOR));

// The same prompts asked of a small bank, the February one (../small-bank.mjs), labels restricted
// to its entries, as the relevance set does.
// A diagnostic of the floors' fit to a small bank; nothing is chosen by it.
const february = await prepareSessionInjection(FEBRUARY_BANK);
const onFebruary = (prompts) =>
  prompts.map((prompt) => ({
    prompt: { ...prompt, grades: gradesOnBank(prompt.grades, february.ranking.candidates, injection.ranking.candidates) },
    added: planPromptRecall(february, prompt.text, new Set()).entries.map((entry) => entry.contentHash),
  }));
row(`shipped, on the February bank (${february.ranking.candidates.length} entries)`, "dev", onFebruary(dev));
row(`shipped, on the February bank (${february.ranking.candidates.length} entries)`, "held-out", onFebruary(heldout));
const tunedText = `Floor tuned on the whole dev set: ${JSON.stringify(tunedOnDev)}${JSON.stringify(tunedOnDev) === JSON.stringify(PROMPT_RECALL_FLOOR) ? " — the shipped one." : `; shipped: ${JSON.stringify(PROMPT_RECALL_FLOOR)}`}`;
process.stdout.write(`\nPrompt recall (the UserPromptSubmit hook, an empty session ledger):\n\n${table}\n${tunedText}\n`);

if (process.argv.includes("--write")) {
  const path = join(REPO_ROOT, "BENCHMARKS.md");
  const text = readFileSync(path, "utf8");
  const section = `<!-- eval-prompt-recall:start -->\n${table}\n${tunedText}\n<!-- eval-prompt-recall:end -->`;
  const pattern = /<!-- eval-prompt-recall:start -->[\s\S]*?<!-- eval-prompt-recall:end -->/;
  if (!pattern.test(text)) throw new Error("BENCHMARKS.md has no eval-prompt-recall markers: add them where the table belongs");
  writeFileSync(path, text.replace(pattern, section));
}
