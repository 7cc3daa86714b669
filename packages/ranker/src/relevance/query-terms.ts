import { commitSubjectTopic } from "./commit-subject-topic.js";
import { tokenizeText } from "./tokenize-text.js";

/**
 * What a session or a request is about. Every field is optional: a prompt hook or a search has
 * only `text`; a session start has what git, the active feature and the project's manifests say.
 */
export interface RelevanceQuery {
  /** A prompt, a search, a topic. */
  text?: string;
  /** The git branch (`fix/embedding-call-timeouts`); its type prefix (`fix/`, `feature/`) carries no topic. */
  branch?: string | null;
  /** Files changed in the working tree and on the branch. */
  changedFiles?: readonly string[];
  /** Subjects of the branch's recent commits; boilerplate ones (merges, reverts, "wip", version bumps) count for nothing. */
  commitSubjects?: readonly string[];
  /** The active feature: its spec's title and first paragraph. */
  feature?: { title: string; summary: string } | null;
  /** A workflow phase (`design`, `implement`, `review`). */
  phase?: string | null;
  /** The project's stack: languages and dependency names. */
  stack?: readonly string[];
}

/** How much a term found in each part of a query counts; a term found in several counts as its strongest. */
export interface QueryWeights {
  text: number;
  branch: number;
  changedFiles: number;
  commitSubjects: number;
  featureTitle: number;
  featureSummary: number;
  phase: number;
  stack: number;
}

export const DEFAULT_QUERY_WEIGHTS: QueryWeights = {
  text: 1,
  branch: 1,
  changedFiles: 0.3,
  commitSubjects: 0.8,
  featureTitle: 1,
  featureSummary: 0.3,
  phase: 0.3,
  stack: 0.2,
};

// Words that say what is to be done, not what it is about: "fix the pricing page" is about a
// pricing page, and learnings that mention fixes are not therefore relevant. They count a
// third. Stems (as `tokenizeText` gives them).
const TASK_VERBS = new Set(["fix", "add", "updat", "chang", "implement", "creat", "remov", "delet", "make", "improv", "refactor", "bump", "clean", "cleanup", "tweak", "support", "handl", "work", "write", "try", "help", "check", "run"]);
const TASK_VERB_FACTOR = 1 / 3;
// Folder names that say where a file is kept, not what it does.
const LAYOUT_FOLDERS = new Set(["src", "lib", "libs", "dist", "build", "out", "packag", "pkg", "intern", "app", "apps", "cmd", "script", "doc", "test", "tests", "spec", "specs", "__tests__", "main", "java", "com", "org"]);
// A file's folders tell less about it than its own name does.
const FOLDER_FACTOR = 0.5;

// A default branch says nothing of the work on it.
const DEFAULT_BRANCHES = new Set(["main", "master", "develop", "development", "trunk", "HEAD"]);
// Conventional branch prefixes name the kind of change, not its topic.
const BRANCH_TYPE = /^(?:feature|feat|fix|bugfix|hotfix|chore|docs|refactor|test|tests|release|perf|ci|build|style|wip|dev)\//i;

/**
 * The query's terms, each with the weight of the strongest part of the query it occurs in.
 *
 * @example
 * queryTerms({ branch: "fix/embedding-call-timeouts", changedFiles: ["semantic_memory/retry.py"] });
 * // Map { "embed" => 1, "call" => 1, "timeout" => 1, "retri" => 0.3, "py" => 0.3, "semant" => 0.15, "memori" => 0.15 }
 */
export function queryTerms(query: RelevanceQuery, weights: QueryWeights = DEFAULT_QUERY_WEIGHTS): Map<string, number> {
  // A plan asks for the same query's terms several times (whether it has any, then to rank, then
  // to rank its index): tokenized once, and given as a copy each time. The query is checked by its
  // text too, not only by identity: a caller may change it in place between calls.
  const key = JSON.stringify([query, weights]);
  const kept = LAST_TERMS.get(query);
  if (kept !== undefined && kept.key === key) return new Map(kept.terms);
  const terms = termsOf(query, weights);
  LAST_TERMS.set(query, { key, terms: new Map(terms) });
  return terms;
}
const LAST_TERMS = new WeakMap<RelevanceQuery, { key: string; terms: ReadonlyMap<string, number> }>();

function termsOf(query: RelevanceQuery, weights: QueryWeights): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (text: string | null | undefined, weight: number, skip?: ReadonlySet<string>) => {
    if (text === null || text === undefined || weight <= 0) return;
    for (const term of tokenizeText(text)) {
      if (skip?.has(term) === true) continue;
      const termWeight = TASK_VERBS.has(term) ? weight * TASK_VERB_FACTOR : weight;
      if ((terms.get(term) ?? 0) < termWeight) terms.set(term, termWeight);
    }
  };
  add(query.text, weights.text);
  if (query.branch !== null && query.branch !== undefined && !DEFAULT_BRANCHES.has(query.branch)) add(query.branch.replace(BRANCH_TYPE, ""), weights.branch);
  for (const file of query.changedFiles ?? []) {
    const slash = file.lastIndexOf("/");
    add(file.slice(slash + 1), weights.changedFiles);
    if (slash > 0) add(file.slice(0, slash), weights.changedFiles * FOLDER_FACTOR, LAYOUT_FOLDERS);
  }
  // A merge, a revert, "wip" or a version bump says nothing of the work: no weight (commitSubjectTopic).
  for (const subject of query.commitSubjects ?? []) add(commitSubjectTopic(subject), weights.commitSubjects);
  add(query.feature?.title, weights.featureTitle);
  add(query.feature?.summary, weights.featureSummary);
  add(query.phase, weights.phase);
  for (const marker of query.stack ?? []) add(marker, weights.stack);
  return terms;
}
