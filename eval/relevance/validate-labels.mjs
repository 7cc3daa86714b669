#!/usr/bin/env node
// Validates eval/relevance/dev.json, heldout.json (and heldout-2.json) against the entries the list command reports.
// Usage:
//   node eval/relevance/validate-labels.mjs <list.json>
//   node eval/relevance/validate-labels.mjs            (spawns ./node_modules/.bin/iflow-memory list itself)
// where <list.json> is the output of
//   iflow-memory list --project-root test/fixtures/corpora/iflow-kb-2026-04 \
//     --global-store test/fixtures/corpora/global-store-example --scope all --json
import { readFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const KINDS = ["prompt", "feature", "branch", "phase"];
const PHASES = ["specify", "design", "plan", "tasks", "implement", "review", "finish"];

function loadEntries() {
  if (process.argv[2]) return JSON.parse(readFileSync(process.argv[2], "utf8"));
  const bin = join(repo, "node_modules", ".bin", "iflow-memory");
  if (!existsSync(bin)) throw new Error(`no list JSON given and ${bin} is missing (build the CLI first)`);
  const corpora = join(repo, "test", "fixtures", "corpora");
  const out = execFileSync(bin, [
    "list", "--project-root", join(corpora, "iflow-kb-2026-04"),
    "--global-store", join(corpora, "global-store-example"), "--scope", "all", "--json",
  ], { encoding: "utf8", maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

const entries = loadEntries();
const byHash = new Map();
for (const e of entries) {
  const h = String(e.contentHash).replace(/^sha256:/, "");
  if (!byHash.has(h)) byHash.set(h, e);
}
const errors = [];
const err = (m) => errors.push(m);
const ids = new Set();
const totals = { contexts: 0, byKind: Object.fromEntries(KINDS.map((k) => [k, 0])) };

for (const split of ["dev", "heldout", "heldout2"]) {
  const file = join(here, `${split === "heldout2" ? "heldout-2" : split}.json`);
  if (split === "heldout2" && !existsSync(file)) continue;
  const doc = JSON.parse(readFileSync(file, "utf8"));
  for (const f of ["description", "bank", "globalStore", "contexts"]) if (!(f in doc)) err(`${split}: missing ${f}`);
  const stats = Object.fromEntries(KINDS.map((k) => [k, { n: 0, empty: 0, labels: 0 }]));
  let g1 = 0, g2 = 0;
  for (const c of doc.contexts) {
    const where = `${split}:${c.id}`;
    if (ids.has(c.id)) err(`duplicate context id ${c.id}`);
    ids.add(c.id);
    if (!c.id.startsWith(`${split}-${c.kind}-`)) err(`${where}: id does not match split/kind`);
    if (!KINDS.includes(c.kind)) { err(`${where}: bad kind ${c.kind}`); continue; }
    const q = c.query ?? {};
    if (typeof q.text !== "string") err(`${where}: query.text must be a string`);
    const allowed = { prompt: ["text"], feature: ["text", "feature"], branch: ["text", "branch", "changedFiles", "commitSubjects"], phase: ["text", "phase"] }[c.kind];
    for (const k of Object.keys(q)) if (!allowed.includes(k)) err(`${where}: query.${k} not allowed for kind ${c.kind}`);
    if (c.kind === "prompt" && !q.text) err(`${where}: empty prompt`);
    if (c.kind === "feature" && !(q.feature?.title && q.feature?.summary)) err(`${where}: feature needs title and summary`);
    if (c.kind === "branch") {
      if (!q.branch) err(`${where}: branch missing`);
      if (!Array.isArray(q.changedFiles) || q.changedFiles.length < 1 || q.changedFiles.length > 8) err(`${where}: changedFiles must hold 1-8 paths`);
      if (!Array.isArray(q.commitSubjects) || q.commitSubjects.length < 1 || q.commitSubjects.length > 4) err(`${where}: commitSubjects must hold 1-4 subjects`);
    }
    if (c.kind === "phase" && !PHASES.includes(q.phase)) err(`${where}: bad phase ${q.phase}`);
    if (typeof c.rationale !== "string" || !c.rationale) err(`${where}: rationale missing`);
    if (!Array.isArray(c.labels)) { err(`${where}: labels must be an array`); continue; }
    const seen = new Set();
    for (const l of c.labels) {
      if (!/^[0-9a-f]{16}$/.test(l.hash)) err(`${where}: hash ${l.hash} is not 16 hex chars`);
      const e = byHash.get(l.hash);
      if (!e) err(`${where}: hash ${l.hash} (${l.name}) not in the list output`);
      else if (e.name !== l.name) err(`${where}: hash ${l.hash} is "${e.name}", label says "${l.name}"`);
      if (seen.has(l.hash)) err(`${where}: hash ${l.hash} labelled twice`);
      seen.add(l.hash);
      if (l.grade !== 1 && l.grade !== 2) err(`${where}: grade must be 1 or 2`);
      if (l.grade === 1) g1++; else if (l.grade === 2) g2++;
    }
    const s = stats[c.kind];
    s.n++; s.labels += c.labels.length; if (c.labels.length === 0) s.empty++;
    totals.byKind[c.kind]++; totals.contexts++;
  }
  const n = doc.contexts.length;
  const empty = KINDS.reduce((a, k) => a + stats[k].empty, 0);
  const labelled = KINDS.reduce((a, k) => a + stats[k].labels, 0);
  console.log(`${split}.json: ${n} contexts, ${empty} empty, ${labelled} labels (${g2} grade 2, ${g1} grade 1)`);
  console.log(`  mean labels/context ${(labelled / n).toFixed(2)}; over non-empty ${(labelled / (n - empty)).toFixed(2)}`);
  for (const k of KINDS) {
    const s = stats[k];
    console.log(`  ${k.padEnd(8)} ${String(s.n).padStart(2)} contexts, ${s.empty} empty, mean labels ${(s.n ? s.labels / s.n : 0).toFixed(2)}`);
    if (s.n === 0) err(`${split}: no ${k} contexts`);
  }
  if (empty === 0) err(`${split}: no "nothing applies" contexts`);
}
// Balance: each kind within a quarter +/- 3 of the total.
for (const k of KINDS) {
  const share = totals.byKind[k] / totals.contexts;
  if (Math.abs(share - 0.25) > 3 / totals.contexts + 1e-9) err(`kind ${k} is unbalanced: ${totals.byKind[k]}/${totals.contexts}`);
}
console.log(`total: ${totals.contexts} contexts; by kind ${JSON.stringify(totals.byKind)}; ${byHash.size} distinct entries in the list output`);
if (errors.length) { console.error(`\n${errors.length} problem(s):\n- ` + errors.join("\n- ")); process.exit(1); }
console.log("OK");
