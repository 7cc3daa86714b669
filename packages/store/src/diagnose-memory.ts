import { readdirSync, statSync, type Stats } from "node:fs";
import { readFeedback } from "./read-feedback.js";
import { join } from "node:path";
import { CATEGORIES, findSecrets, redactSecrets, type Category } from "@iflow-memory/parser";
import { findContradictions, findDuplicateNames } from "@iflow-memory/ranker";
import { readLastInjection } from "./manage-global-store.js";
import { prepareSessionInjection } from "./prepare-session-injection.js";
import { readConfig } from "./read-config.js";
import { readGlobalStore } from "./read-global-store.js";
import { readKnowledgeBank } from "./read-knowledge-bank.js";
import { COMMIT_JOURNAL } from "./commit-files.js";
import { readEntryFiles } from "./read-entry-files.js";
import { redactEntriesRead } from "./redact-entries-read.js";
import { formatWarning } from "./store-warning.js";
import { planSessionStart, sessionQuery } from "./relevance/plan-session-injection.js";
import { gatherSessionSignals, type SessionSignals } from "./signals/index.js";

export interface HealthCheck {
  name: string;
  status: "ok" | "warning" | "problem";
  details: string[];
}

/**
 * `doctor`: the config, the global store (readable, private), the knowledge bank, duplicate
 * names, contradictory entries and secrets, each with a status; a problem is something to fix
 * (the command exits 1), a warning something to look at.
 *
 * @example
 * (await diagnoseMemory({ projectRoot, globalStoreDir })).map((check) => check.status); // ["ok", "ok", …]
 */
export async function diagnoseMemory(options: { projectRoot: string; globalStoreDir: string }): Promise<HealthCheck[]> {
  const checks: HealthCheck[] = [];

  const config = await readConfig(options.projectRoot);
  checks.push({ name: "config", status: config.warnings.length === 0 ? "ok" : "problem", details: config.warnings.length === 0 ? [`${config.path}: valid, or absent (the defaults)`] : config.warnings.map(formatWarning) });

  const global = await readGlobalStore(options.globalStoreDir);
  const store = storeHealth(options.globalStoreDir, global.warnings.map(formatWarning));
  checks.push(store);

  // Raw (not redacted), to find the secrets in it.
  const bank = await readKnowledgeBank(options.projectRoot, { raw: true });
  checks.push({ name: "knowledge bank", status: bank.warnings.length === 0 ? "ok" : "warning", details: bank.warnings.length === 0 ? [`${bank.entries.length} entries`] : bank.warnings.map(formatWarning) });

  // Raw global entries (not redacted), to find the secrets in them.
  const raw = store.status === "problem" ? { entries: [] } : await readEntryFiles(options.globalStoreDir, "global");
  const all = [...redactEntriesRead(bank, "the knowledge bank").entries, ...global.entries];

  const duplicates = findDuplicateNames(all);
  checks.push({
    name: "duplicate names",
    status: duplicates.length === 0 ? "ok" : "warning",
    details: duplicates.map((group) => `"${group.name}": ${group.entries.map((entry) => `sha256:${entry.contentHash} (${entry.scope})`).join(", ")}`),
  });

  const contradictions = findContradictions(all);
  checks.push({
    name: "contradictions",
    status: contradictions.length === 0 ? "ok" : "warning",
    details: contradictions.map((pair) => `"${pair.a.name}" vs "${pair.b.name}" (${Math.round(pair.overlap * 100)}% shared words; iflow-memory contest ${pair.a.contentHash} ${pair.b.contentHash} if they do contradict)`),
  });

  const secrets = [...bank.entries, ...raw.entries].flatMap((entry) => {
    const kinds = [...new Set(findSecrets(`${entry.headerLine}\n${entry.description}\n${entry.metadataText}`).map((finding) => finding.kind))];
    return kinds.length === 0 ? [] : [`${entry.origin.path}:${entry.origin.line}: "${redactSecrets(entry.name).text}" contains ${kinds.join(", ")}`];
  });
  checks.push({ name: "secrets", status: secrets.length === 0 ? "ok" : "problem", details: secrets });
  return checks;
}

/** The store folder's state; `unread`: its files that could not be read (a FIFO, a device, a link loop). */
function storeHealth(directory: string, unread: string[]): HealthCheck {
  let info;
  try {
    info = statSync(directory);
  } catch {
    return { name: "global store", status: "ok", details: [`${directory}: not created yet (the first promotion creates it)`] };
  }
  if (!info.isDirectory()) return { name: "global store", status: "problem", details: [`${directory} is a file, not a directory; move it away`] };
  const details: string[] = [...unread];
  let status: HealthCheck["status"] = unread.length === 0 ? "ok" : "warning";
  if ((info.mode & 0o077) !== 0) {
    status = "warning";
    details.push(`${directory} is mode ${(info.mode & 0o777).toString(8)}; others can read your memory (chmod 700)`);
  }
  let names: string[] = [];
  try {
    names = readdirSync(directory);
  } catch (error) {
    return { name: "global store", status: "problem", details: [`${directory} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`] };
  }
  if (names.includes(COMMIT_JOURNAL)) {
    status = "warning";
    details.push(`${join(directory, COMMIT_JOURNAL)}: a change to the store was interrupted (its writer stopped mid-commit); readers already see it as done, and the next change to the store completes it`);
  }
  for (const category of CATEGORIES as readonly Category[]) {
    if (!names.includes(`${category}.md`)) continue;
    // Only a file's mode says who can read the memory; anything else is among `unread`.
    const file = statSafely(join(directory, `${category}.md`));
    if (file?.isFile() !== true) continue;
    const mode = file.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      status = "warning";
      details.push(`${join(directory, `${category}.md`)} is mode ${mode.toString(8)}; others can read it (chmod 600)`);
    }
  }
  if (details.length === 0) details.push(`${directory}: readable, private`);
  return { name: "global store", status, details };
}

function statSafely(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

export interface MemoryStats {
  entries: Record<"local" | "global", Record<Category, number>>;
  injection: {
    entries: number;
    chars: number;
    estimatedTokens: number;
    droppedForBudget: number;
    enabled: boolean;
    /** How the next session start chooses: by relevance to the signals, or today's order (config, or no signal to rank by). */
    ranking: "relevance" | "original";
    /** The entries it injects, in the block's order. */
    names: string[];
    /** Entries its index names (hash and title) after those in full. */
    indexed: number;
  };
  /** What the next session start would find the session to be about (git, the active feature, the stack). */
  signals: SessionSignals;
  /** Readers' votes (`record_feedback`, `iflow-memory feedback`): entries voted on, and the votes. */
  feedback: { entries: number; helpful: number; unhelpful: number };
  lastInjection: Record<string, unknown> | null;
  /** What could not be read or was replaced by a default, one line each ("PATH:LINE: message"). */
  warnings: string[];
}

/**
 * `stats`: entries per scope and category, the signals a session start finds (git branch,
 * changed files, commit subjects, active feature, stack), what the project's next session start
 * would inject for them (entries, size, estimated tokens, as the hook computes it), readers'
 * feedback, and the last injection recorded.
 *
 * @example
 * (await collectStats({ projectRoot, globalStoreDir })).injection.chars; // 8885
 */
export async function collectStats(options: { projectRoot: string; globalStoreDir: string; env?: Record<string, string | undefined> }): Promise<MemoryStats> {
  const bank = await readKnowledgeBank(options.projectRoot);
  const global = await readGlobalStore(options.globalStoreDir);
  const count = (entries: readonly { category: Category }[]) => Object.fromEntries(CATEGORIES.map((category) => [category, entries.filter((entry) => entry.category === category).length])) as Record<Category, number>;
  const session = await prepareSessionInjection(options);
  const signals = await gatherSessionSignals({ projectRoot: options.projectRoot, ...(options.env === undefined ? {} : { env: options.env }) });
  const feedback = readFeedback(options.globalStoreDir);
  const plan = planSessionStart(session, sessionQuery(signals), { feedback });
  const votes = [...feedback.values()];
  return {
    entries: { local: count(bank.entries), global: count(global.entries) },
    injection: {
      entries: plan.entries.length,
      chars: plan.block.length,
      estimatedTokens: Math.ceil(plan.block.length / 4),
      droppedForBudget: plan.droppedForBudget,
      enabled: session.config.injectionEnabled,
      ranking: plan.ranking,
      names: plan.entries.map((entry) => entry.name),
      indexed: plan.indexed?.length ?? 0,
    },
    signals,
    feedback: { entries: votes.length, helpful: votes.reduce((sum, vote) => sum + vote.helpful, 0), unhelpful: votes.reduce((sum, vote) => sum + vote.unhelpful, 0) },
    lastInjection: readLastInjection(options.globalStoreDir),
    warnings: [...session.configWarnings, ...session.warnings].map(formatWarning),
  };
}
