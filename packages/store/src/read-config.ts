import { join } from "node:path";
import { readTextFile } from "./read-text-file.js";
import type { StoreWarning } from "./store-warning.js";

/** SessionStart sources Claude Code sends (a forked session may also report "fork"). */
export const SESSION_EVENTS: readonly string[] = ["startup", "resume", "clear", "compact", "fork"];

export interface MemoryConfig {
  /** `memory_injection_enabled`: false suppresses all injection. */
  injectionEnabled: boolean;
  /** `memory_injection_limit`: entries; 0 none, -1 no limit. */
  injectionLimit: number;
  /** `memory_injection_max_chars`: hard cap on the memory block. */
  injectionMaxChars: number;
  /** `memory_injection_events`: SessionStart sources that inject. */
  injectionEvents: string[];
  /** `memory_global_enabled`: include the global store. */
  globalEnabled: boolean;
  /**
   * `memory_injection_ranking`: "relevance" puts what the session is about first, then the proven
   * core; "strict" only what the session is about; "original" is today's order.
   */
  injectionRanking: InjectionRanking;
  /** `memory_injection_index`: after the entries in full, a line (hash and title) for each of the next ones, while the budget allows. */
  injectionIndex: boolean;
  /** `memory_prompt_recall`: the prompt hook adds the entries relevant to each prompt. */
  promptRecall: boolean;
  /** `memory_prompt_recall_limit`: entries a prompt adds at most; 0 none. */
  promptRecallLimit: number;
}

/** How a session start chooses its entries. */
export type InjectionRanking = "relevance" | "strict" | "original";

/**
 * The most characters a session-start block may have: Claude Code hands a hook's context longer
 * than about 10,000 characters to the model as a ~2 KB preview only (2.1: cut between 9,967 and
 * 10,341), so a larger `memory_injection_max_chars` is capped here, with a warning.
 */
export const MAX_INJECTION_CHARS = 9500;

export const DEFAULT_CONFIG: Readonly<MemoryConfig> = Object.freeze({
  injectionEnabled: true,
  injectionLimit: 20,
  injectionMaxChars: 9000,
  injectionEvents: ["startup", "resume", "clear", "fork"],
  globalEnabled: true,
  injectionRanking: "relevance",
  injectionIndex: true,
  promptRecall: true,
  promptRecallLimit: 5,
});

const RANKINGS: readonly string[] = ["relevance", "strict", "original"] satisfies InjectionRanking[];

/**
 * Whether `value` is a whole `MemoryConfig`: every setting there, of its type (what a config
 * kept in a cache file must be before it is trusted).
 *
 * @example
 * isMemoryConfig({ ...DEFAULT_CONFIG }); // true
 * isMemoryConfig({ ...DEFAULT_CONFIG, injectionEvents: "startup" }); // false
 */
export function isMemoryConfig(value: unknown): value is MemoryConfig {
  if (value === null || typeof value !== "object") return false;
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_CONFIG) as Array<keyof MemoryConfig>) {
    if (typeof config[key] !== typeof DEFAULT_CONFIG[key]) return false;
  }
  const events = config.injectionEvents;
  return Array.isArray(events) && events.every((event) => typeof event === "string") && RANKINGS.includes(config.injectionRanking as string);
}

export interface ConfigRead {
  config: MemoryConfig;
  /** The config file's path, whether or not it exists. */
  path: string;
  /** The settings the file gives a valid value (`[]` without a file): what a command with defaults of its own takes from it. */
  configured: Array<keyof MemoryConfig>;
  warnings: StoreWarning[];
}

/** The project's config file. */
export function configPath(projectRoot: string): string {
  return join(projectRoot, ".claude", "iflow-dev.local.md");
}

/**
 * Reads the memory settings from the YAML frontmatter of `<project>/.claude/iflow-dev.local.md`.
 * A missing file means the defaults; a broken file or a bad value is a warning and the default,
 * never a throw. Keys of other iflow features in the same file are left alone. With `inThread`,
 * the file is read in the calling thread (`readTextFileSync`): a command that reads and exits.
 *
 * @example
 * const { config, warnings } = await readConfig("/work/webshop");
 * config.injectionLimit; // 20 unless the file says otherwise
 */
export async function readConfig(projectRoot: string, options: { inThread?: boolean } = {}): Promise<ConfigRead> {
  const path = configPath(projectRoot);
  const file = await readTextFile(path, options);
  if ("missing" in file) return configWithoutFile(projectRoot);
  if ("warning" in file) return { config: { ...DEFAULT_CONFIG }, path, configured: [], warnings: [file.warning] };
  return { ...parseConfigText(file.text, path, await loadParseDocument()), path };
}

/**
 * What `readConfig` gives a project without a config file: the defaults, no warning. For a reader
 * that knows the file is missing without looking again (a session start, from its fingerprint).
 *
 * @example
 * configWithoutFile("/work/webshop").config; // DEFAULT_CONFIG's settings
 */
export function configWithoutFile(projectRoot: string): ConfigRead {
  return { config: { ...DEFAULT_CONFIG }, path: configPath(projectRoot), configured: [], warnings: [] };
}

type ParseDocument = typeof import("yaml").parseDocument;

// Loaded only when a config file exists: most session starts never pay for the YAML parser.
// Bundlers that inline yaml's CommonJS build put its exports under `default`.
async function loadParseDocument(): Promise<ParseDocument> {
  const yaml = (await import("yaml")) as typeof import("yaml") & { default?: typeof import("yaml") };
  return typeof yaml.parseDocument === "function" ? yaml.parseDocument : yaml.default!.parseDocument;
}

function parseConfigText(text: string, path: string, parseDocument: ParseDocument): Omit<ConfigRead, "path"> {
  const config: MemoryConfig = { ...DEFAULT_CONFIG };
  const configured: Array<keyof MemoryConfig> = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines[0]?.trimEnd() !== "---") {
    return { config, configured, warnings: [{ path, line: 1, message: "has no YAML frontmatter (a first line of ---); using the defaults" }] };
  }
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) {
    return { config, configured, warnings: [{ path, line: 1, message: "its YAML frontmatter is never closed with ---; using the defaults" }] };
  }

  const parsed = parseFrontmatter(lines.slice(1, end).join("\n"), parseDocument);
  if ("refusal" in parsed) {
    const reason = parsed.refusal.message.split("\n")[0] ?? "invalid YAML";
    return { config, configured, warnings: [{ path, line: (parsed.refusal.line ?? 0) + 1, message: `invalid YAML (${reason}); using the defaults` }] };
  }
  const data = parsed.data;
  if (data === null || data === undefined) return { config, configured, warnings: [] };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { config, configured, warnings: [{ path, line: 2, message: "its frontmatter is not a mapping of keys to values; using the defaults" }] };
  }

  const values = data as Record<string, unknown>;
  const warnings: StoreWarning[] = [];
  const lineOf = (key: string) => {
    const index = lines.findIndex((line, at) => at > 0 && at < end && line.startsWith(`${key}:`));
    return index < 0 ? undefined : index + 1;
  };
  const read = <K extends keyof MemoryConfig>(
    key: string,
    field: K,
    convert: (value: unknown) => MemoryConfig[K] | undefined,
    expected: string,
  ) => {
    if (!(key in values)) return;
    const converted = convert(values[key]);
    if (converted === undefined) {
      const line = lineOf(key);
      warnings.push({
        path,
        ...(line === undefined ? {} : { line }),
        message: `${key}: ${JSON.stringify(values[key])} is not ${expected}; using the default ${JSON.stringify(DEFAULT_CONFIG[field])}`,
      });
    } else {
      config[field] = converted;
      configured.push(field);
    }
  };

  read("memory_injection_enabled", "injectionEnabled", toBoolean, "true or false");
  read("memory_injection_limit", "injectionLimit", (value) => toInteger(value, -1), "a whole number of -1 or more");
  read("memory_injection_max_chars", "injectionMaxChars", (value) => toInteger(value, 1), "a whole number of 1 or more");
  if (config.injectionMaxChars > MAX_INJECTION_CHARS) {
    const line = lineOf("memory_injection_max_chars");
    warnings.push({
      path,
      ...(line === undefined ? {} : { line }),
      message: `memory_injection_max_chars: ${config.injectionMaxChars} is more than Claude Code passes to the model whole (about 10,000 characters); capped at ${MAX_INJECTION_CHARS}`,
    });
    config.injectionMaxChars = MAX_INJECTION_CHARS;
  }
  read("memory_injection_events", "injectionEvents", toEvents, `a list of ${SESSION_EVENTS.join(", ")}`);
  const unknown = config.injectionEvents.filter((event) => !SESSION_EVENTS.includes(event));
  if (unknown.length > 0) {
    const line = lineOf("memory_injection_events");
    warnings.push({
      path,
      ...(line === undefined ? {} : { line }),
      message: `memory_injection_events: ${unknown.join(", ")} is not a SessionStart source Claude Code is known to send (${SESSION_EVENTS.join(", ")}); kept as written`,
    });
  }
  read("memory_global_enabled", "globalEnabled", toBoolean, "true or false");
  read("memory_injection_ranking", "injectionRanking", toRanking, "relevance, strict or original");
  read("memory_injection_index", "injectionIndex", toBoolean, "true or false");
  read("memory_prompt_recall", "promptRecall", toBoolean, "true or false");
  read("memory_prompt_recall_limit", "promptRecallLimit", (value) => toInteger(value, 0), "a whole number of 0 or more");
  for (const key of Object.keys(values)) {
    if (CONFIG_KEYS.includes(key)) continue;
    const closest = closestConfigKey(key);
    if (closest === null) continue;
    const line = lineOf(key);
    warnings.push({ path, ...(line === undefined ? {} : { line }), message: `${key} is not a setting of iflow-memory; did you mean ${closest}? (ignored)` });
  }
  return { config, configured, warnings };
}

// Tags the parser does not know would leave a value read as something else than was meant.
const REFUSED_WARNINGS = new Set(["TAG_RESOLVE_FAILED", "BAD_COLLECTION_TYPE"]);

/**
 * The frontmatter's data, or why the YAML parser refused it (`line`: of the frontmatter,
 * 1-based, when the parser knows it): a syntax error, a tag it does not know, or what it throws
 * on rather than reports — an alias bomb ("Excessive alias count"), a document nested deeper
 * than the stack.
 */
function parseFrontmatter(text: string, parseDocument: ParseDocument): { data: unknown } | { refusal: { message: string; line?: number } } {
  try {
    const document = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
    const problem = document.errors[0] ?? document.warnings.find((warning) => REFUSED_WARNINGS.has(warning.code));
    if (problem !== undefined) return { refusal: { message: problem.message, line: text.slice(0, problem.pos[0]).split("\n").length } };
    return { data: document.toJS() as unknown };
  } catch (error) {
    return { refusal: { message: (error as Error).message } };
  }
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (["true", "yes", "on"].includes(word)) return true;
  if (["false", "no", "off"].includes(word)) return false;
  return undefined;
}

function toRanking(value: unknown): InjectionRanking | undefined {
  const word = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return word === "relevance" || word === "strict" || word === "original" ? word : undefined;
}

/** The settings iflow-memory reads from the config file. */
export const CONFIG_KEYS: readonly string[] = [
  "memory_injection_enabled",
  "memory_injection_limit",
  "memory_injection_max_chars",
  "memory_injection_events",
  "memory_global_enabled",
  "memory_injection_ranking",
  "memory_injection_index",
  "memory_prompt_recall",
  "memory_prompt_recall_limit",
];

/**
 * The known setting an unknown key was probably meant to be: for a key of ours (starting
 * `memory`) the closest by edit distance, and for any other key one within a quarter of its
 * length in edits (a misspelling); null for a key of another iflow feature sharing the file.
 *
 * @example
 * closestConfigKey("memory_injection_limt"); // "memory_injection_limit"
 * closestConfigKey("workflow_mode"); // null
 */
export function closestConfigKey(key: string): string | null {
  const lower = key.toLowerCase();
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const known of CONFIG_KEYS) {
    const distance = editDistance(lower, known);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  const ours = /^mem(?:ory|roy|ry|orry)?[_-]/.test(lower);
  return ours || bestDistance <= Math.max(1, Math.floor(key.length / 4)) ? best : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function toInteger(value: unknown, minimum: number): number | undefined {
  const number = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number >= minimum ? number : undefined;
}

function toEvents(value: unknown): string[] | undefined {
  const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (items === undefined || items.some((item) => typeof item !== "string")) return undefined;
  const events = (items as string[]).map((item) => item.trim().toLowerCase()).filter((item) => item !== "");
  return [...new Set(events)];
}
