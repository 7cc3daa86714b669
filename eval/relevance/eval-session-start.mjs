#!/usr/bin/env node
// Part of `pnpm eval:relevance`: what a session start puts in front of the model, and what
// `search` returns, on the labelled contexts of this folder.
//
// Session start: the shipped planning (`planInjection` as `planSessionStart` calls it: the entries
// that match the context first, then the proven core, then an index of the rest), against the
// relevance-only start (`memory_injection_ranking: strict`, no index) and today's order. Per
// context with labels: the share of its labelled entries shown in full, and the share shown in
// full or named by title in the index (the model reads the titles and fetches what it needs).
// The index's share of the budget (`SESSION_INDEX_SHARE`) is chosen here on dev; held-out is
// reported.
//
// Search (`iflow-memory search`, MCP `search_memory`): each context's words as one query, ranked
// with the search floor (`SEARCH_FLOOR`: only entries that match no meaningful term are left out),
// nDCG@10 and Recall@20 beside plain BM25's on the same words.
// `--write` also puts the figures into BENCHMARKS.md (between the eval-session-start markers).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { injectionCandidates, planInjection, rankEntries, SEARCH_FLOOR } from "../../packages/ranker/dist/index.js";
import { readMemorySources, SESSION_INDEX_MAX_LINES, SESSION_INDEX_SHARE, SESSION_MATCHES_IN_FULL } from "../../packages/store/dist/index.js";
import { contextText, mean, ndcgAt, plainBm25Ranker, recallAt } from "./ranking-metrics.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, "../..");
const LIMIT = 20;
const MAX_CHARS = 9000;

const load = (name) => JSON.parse(readFileSync(join(HERE, name), "utf8"));
const dev = load("dev.json");
const heldout = load("heldout.json");
const heldout2 = load("heldout-2.json");
const sources = await readMemorySources({
  projectRoot: join(REPO_ROOT, dev.bank),
  globalStoreDir: join(REPO_ROOT, dev.globalStore),
  includeGlobal: true,
});
const candidates = injectionCandidates({ local: sources.local, global: sources.global, project: "iflow" });

const format = (value) => (Number.isNaN(value) ? "—" : value.toFixed(2));
const gradesOf = (context) => new Map(context.labels.map((label) => [label.hash, label.grade]));
function queryOf(context) {
  const { text, branch, changedFiles, commitSubjects, feature, phase } = context.query;
  return { text, branch, changedFiles, commitSubjects, feature, phase };
}

// ---- session start ---------------------------------------------------------------------------
const systems = {
  today: () => planInjection({ candidates, limit: LIMIT, maxChars: MAX_CHARS }),
  strict: (context) => planInjection({ candidates, limit: LIMIT, maxChars: MAX_CHARS, query: queryOf(context) }),
  shipped: (context, share = SESSION_INDEX_SHARE, matchesInFull = SESSION_MATCHES_IN_FULL) =>
    planInjection({
      candidates,
      limit: LIMIT,
      maxChars: MAX_CHARS,
      query: queryOf(context),
      fillWithCore: true,
      index: { fetch: "mcp", share, maxLines: SESSION_INDEX_MAX_LINES, matchesInFull },
    }),
};

function sessionFigures(plan, contexts) {
  const full = [];
  const named = [];
  const entries = [];
  const lines = [];
  const chars = [];
  let empty = 0;
  for (const context of contexts) {
    const result = plan(context);
    const shown = new Set(result.entries.map((entry) => entry.contentHash));
    const indexed = new Set(result.indexed.map((entry) => entry.contentHash));
    entries.push(result.entries.length);
    lines.push(result.indexed.length);
    chars.push(result.block.length);
    if (result.block === "") empty++;
    const grades = gradesOf(context);
    if (grades.size === 0) continue;
    const labelled = [...grades.keys()];
    full.push(labelled.filter((hash) => shown.has(hash)).length / labelled.length);
    named.push(labelled.filter((hash) => shown.has(hash) || indexed.has(hash)).length / labelled.length);
  }
  return { full: mean(full), named: mean(named), entries: mean(entries), lines: mean(lines), chars: Math.max(...chars), empty, contexts: contexts.length };
}

const branchContexts = [...dev.contexts, ...heldout.contexts, ...heldout2.contexts].filter((context) => context.kind === "branch");
const sets = [
  ["dev", dev.contexts],
  ["held-out", heldout.contexts],
  ["held-out 2", heldout2.contexts],
  ["branch contexts, all sets", branchContexts],
];

// The index's share of the budget and the matching entries shown in full, chosen on dev: of the
// settings that name at least 0.70 of the labelled entries in full or by title (the goal), the one
// with the most in full and by title together; a tie within 0.01 goes to more in full (a title is
// read in full only if the model asks for it).
const settings = [];
for (const matchesInFull of [3, 5, 8, 12, 20]) for (const share of [0.3, 0.5, 0.7]) settings.push({ matchesInFull, share, figures: sessionFigures((context) => systems.shipped(context, share, matchesInFull), dev.contexts) });
const meeting = settings.filter((setting) => setting.figures.named >= 0.7);
const best = Math.max(...meeting.map((setting) => setting.figures.full + setting.figures.named));
const chosen = meeting.filter((setting) => setting.figures.full + setting.figures.named >= best - 0.01).sort((a, b) => b.matchesInFull - a.matchesInFull || b.figures.full - a.figures.full)[0];
let shareTable =
  "| matching entries in full at most | index share of the budget | dev: labelled in full | dev: in full or by title | entries in full (mean) | index lines (mean) |\n|---|---|---|---|---|---|\n";
for (const { matchesInFull, share, figures } of settings) {
  const shipped = matchesInFull === SESSION_MATCHES_IN_FULL && share === SESSION_INDEX_SHARE ? " (shipped)" : "";
  shareTable += `| ${matchesInFull}${shipped} | ${share} | ${format(figures.full)} | ${format(figures.named)} | ${format(figures.entries)} | ${format(figures.lines)} |\n`;
}
const same = chosen !== undefined && chosen.matchesInFull === SESSION_MATCHES_IN_FULL && chosen.share === SESSION_INDEX_SHARE;
shareTable += `\nChosen on dev: ${chosen === undefined ? "none meets 0.70" : `${chosen.matchesInFull} in full, share ${chosen.share}`}${same ? " — the shipped setting." : `; shipped: ${SESSION_MATCHES_IN_FULL} in full, share ${SESSION_INDEX_SHARE}`}\n`;

let sessionTable =
  "| session start | set | contexts (with nothing that applies) | labelled entries in full | in full or by title | entries in full (mean) | index lines (mean) | longest block (chars) | empty starts |\n|---|---|---|---|---|---|---|---|---|\n";
for (const [name, plan] of [
  ["today's order, no index", systems.today],
  ["relevance only (`strict`), no index", systems.strict],
  ["relevance, then the core, then the index (shipped)", systems.shipped],
]) {
  for (const [setName, set] of sets) {
    const figures = sessionFigures(plan, set);
    const nothing = set.filter((context) => context.labels.length === 0).length;
    sessionTable += `| ${name} | ${setName} | ${figures.contexts} (${nothing}) | ${format(figures.full)} | ${format(figures.named)} | ${format(figures.entries)} | ${format(figures.lines)} | ${figures.chars} | ${figures.empty} |\n`;
  }
}

// ---- search ----------------------------------------------------------------------------------
// The words a user or the model would search with: everything the context says, as one text.
const plainBm25 = plainBm25Ranker(candidates);
const searchSystems = [
  ["plain BM25", (context) => plainBm25(contextText(context))],
  ["ours, search floor (shipped)", (context) => rankEntries(candidates, { text: contextText(context) }, { floor: SEARCH_FLOOR }).map((item) => item.entry.contentHash)],
];
let searchTable = "| search | set | contexts with labels | nDCG@10 | Recall@20 |\n|---|---|---|---|---|\n";
for (const [name, search] of searchSystems) {
  for (const [setName, set] of sets.slice(0, 3)) {
    const labelled = set.filter((context) => context.labels.length > 0);
    const ndcg = mean(labelled.map((context) => ndcgAt(10, search(context), gradesOf(context))));
    const recall = mean(labelled.map((context) => recallAt(20, search(context), gradesOf(context))));
    searchTable += `| ${name} | ${setName} | ${labelled.length} | ${format(ndcg)} | ${format(recall)} |\n`;
  }
}

const output = `${sessionTable}\n${shareTable}\n${searchTable}`;
process.stdout.write(`\n${output}`);
if (process.argv.includes("--write")) {
  const path = join(REPO_ROOT, "BENCHMARKS.md");
  const text = readFileSync(path, "utf8");
  const section = `<!-- eval-session-start:start -->\n${output}<!-- eval-session-start:end -->`;
  const pattern = /<!-- eval-session-start:start -->[\s\S]*?<!-- eval-session-start:end -->/;
  writeFileSync(path, pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n### Session start and search (also \`pnpm eval:relevance\`)\n\n${section}\n`);
}
