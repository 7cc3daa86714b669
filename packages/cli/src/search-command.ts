import { resolve } from "node:path";
import { findProjectRoot, formatWarning, readConfig, resolveGlobalStoreDir, searchMemory } from "@iflow-memory/store";
import { UsageError } from "./errors.js";
import type { CliIO } from "./io.js";

export interface SearchOptions {
  projectRoot?: string;
  globalStore?: string;
  limit: number;
  json?: boolean;
  explain?: boolean;
}

/** `iflow-memory search QUERY…`: local and global entries ranked for the query, best first. */
export async function searchCommand(words: string[], options: SearchOptions, io: CliIO): Promise<number> {
  const query = words.join(" ").trim();
  if (query === "") throw new UsageError("search needs a query, e.g. iflow-memory search embedding timeouts");
  const projectRoot = options.projectRoot === undefined ? await findProjectRoot(io.cwd) : resolve(io.cwd, options.projectRoot);
  const { config, warnings: configWarnings } = await readConfig(projectRoot);
  const globalStoreDir = resolveGlobalStoreDir({ flag: options.globalStore === undefined ? undefined : resolve(io.cwd, options.globalStore), env: io.env });
  const { results, warnings } = await searchMemory({
    projectRoot,
    globalStoreDir,
    includeGlobal: options.globalStore !== undefined || config.globalEnabled,
    query,
    limit: options.limit,
  });
  for (const warning of [...configWarnings, ...warnings]) io.stderr.write(`iflow-memory: warning: ${formatWarning(warning)}\n`);

  if (options.json === true) {
    const items = results.map(({ entry, score, relevance, prominence, feedbackFactor, matchedTerms, coverage }) => ({
      name: entry.name,
      headerLine: entry.headerLine,
      category: entry.category,
      scope: entry.scope,
      contentHash: entry.contentHash,
      score: round(score),
      ...(options.explain === true ? { relevance: round(relevance), prominence: round(prominence), feedbackFactor: round(feedbackFactor), coverage: round(coverage), matchedTerms } : {}),
      description: entry.description,
      metadataText: entry.metadataText,
      origin: entry.origin,
    }));
    io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    return 0;
  }
  if (results.length === 0) {
    io.stderr.write(`iflow-memory: no entry matches "${query}" closely enough\n`);
    return 0;
  }
  for (const { entry, score, relevance, prominence, feedbackFactor, matchedTerms, coverage } of results) {
    io.stdout.write(`sha256:${entry.contentHash}  ${entry.scope.padEnd(6)}  ${entry.category.padEnd(13)}  ${score.toFixed(2).padStart(6)}  ${entry.name}\n`);
    if (options.explain === true) {
      io.stdout.write(`    matched: ${matchedTerms.join(", ")}; relevance ${relevance.toFixed(2)} (${Math.round(coverage * 100)}% of the query), prominence ${prominence.toFixed(2)}, feedback ×${feedbackFactor.toFixed(2)}\n`);
    }
  }
  return 0;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
