import { statSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES, hashContent, parseKnowledgeBank, redactSecrets, type Category, type Confidence, type Entry } from "@iflow-memory/parser";
import { recordMetadata } from "./promotion/index.js";
import { isoTimestamp } from "./iso-timestamp.js";
import { promoteEntries } from "./promotion/index.js";
import { knowledgeBankDir } from "./read-knowledge-bank.js";
import { readTextFile } from "./read-text-file.js";
import { StoreError } from "./store-error.js";
import { withStoreLock } from "./with-store-lock.js";
import { writeFileAtomically } from "./write-file-atomically.js";

/** A learning an agent or a person wants kept (MCP `store_memory`). */
export interface NewMemory {
  category: Category;
  name: string;
  description: string;
  /** What to do instead (an anti-pattern's `Instead:` line). */
  instead?: string | undefined;
  confidence?: Confidence | undefined;
}

export interface StoreMemoryOptions extends NewMemory {
  projectRoot: string;
  globalStoreDir: string;
  /** project (default): the project's knowledge bank; global: the global store, through promotion. */
  scope?: "project" | "global";
  now?: Date;
}

export interface StoreMemoryResult {
  /** The content hash of the stored description (secrets redacted). */
  hash: string;
  /**
   * added: a new entry; counted: the same content was there and is observed once more;
   * already-counted: the global store had it from this project already (a provenance counts once).
   */
  action: "added" | "counted" | "already-counted";
  /** The file written (or that already held the entry). */
  file: string;
  scope: "project" | "global";
  name: string;
  category: Category;
  observationCount: number;
  /** Kinds of the secrets replaced by [REDACTED]. */
  redacted: string[];
}

/** Longest name and description a stored memory may have: a learning, not a document. */
export const MAX_MEMORY_NAME = 200;
export const MAX_MEMORY_DESCRIPTION = 4000;

const HEADER_PREFIX: Record<Category, string> = { "anti-patterns": "Anti-Pattern: ", heuristics: "", patterns: "Pattern: " };

// The head of a knowledge-bank file that does not exist yet: iflow's own template.
const BANK_FILE_HEAD: Record<Category, string> = {
  "anti-patterns": "# Anti-Patterns\n\nThings to avoid. Updated through retrospectives.\n\n---\n\n## Known Anti-Patterns\n",
  heuristics: "# Heuristics\n\nDecision guides for common situations. Updated through retrospectives.\n\n---\n\n## Decision Heuristics\n",
  patterns: "# Patterns\n\nApproaches that have worked well. Updated through retrospectives.\n\n---\n\n## Development Patterns\n",
};

/**
 * Keeps a learning. Project scope writes the project's knowledge bank in its own format
 * (`### Anti-Pattern: N` / `### N` / `### Pattern: N`, the description, `Instead:`,
 * `Confidence:`, `Last observed:`, `Observation count:`), under the bank's lock, atomically;
 * when the bank already holds the same content (by content hash, in any of its files), that
 * entry is observed once more instead. Global scope goes through promotion (provenance, dedup,
 * the store's lock). Secrets are redacted before anything is hashed or written.
 *
 * @example
 * await storeMemory({ projectRoot, globalStoreDir, category: "anti-patterns", name: "Unbounded Retries",
 *   description: "Retrying an embedding call without a deadline hangs the session.", instead: "Give every retry loop a deadline" });
 * // { hash: "…", action: "added", file: "/work/webshop/docs/knowledge-bank/anti-patterns.md", … }
 */
export async function storeMemory(options: StoreMemoryOptions): Promise<StoreMemoryResult> {
  const memory = cleanMemory(options);
  const now = isoTimestamp(options.now ?? new Date());
  if (options.scope === "global") return storeGlobally(options, memory);

  const directory = knowledgeBankDir(options.projectRoot);
  return withStoreLock(directory, async () => {
    const texts = {} as Record<Category, string | null>;
    for (const category of CATEGORIES) texts[category] = await readBankFile(join(directory, `${category}.md`));
    for (const category of CATEGORIES) {
      const text = texts[category];
      if (text === null) continue;
      const existing = parseKnowledgeBank(text, { category, scope: "local", path: `${category}.md` }).entries.find((entry) => entry.contentHash === memory.hash);
      if (existing === undefined) continue;
      const observationCount = existing.observationCount + 1;
      let next = recordMetadata(text, existing.origin.line, "Last observed", now);
      next = recordMetadata(next, existing.origin.line, "Observation count", String(observationCount));
      const file = join(directory, `${category}.md`);
      await writeBankFile(file, next);
      return { hash: memory.hash, action: "counted", file, scope: "project", name: existing.name, category, observationCount, redacted: memory.redacted };
    }

    const file = join(directory, `${memory.category}.md`);
    const before = texts[memory.category] ?? BANK_FILE_HEAD[memory.category];
    const next = `${before.endsWith("\n") ? before : `${before}\n`}\n${formatBankEntry(memory, now)}`;
    // Whatever the file held (an unclosed comment, an open code fence), the entry must read back
    // as written: else nothing is written.
    const parsed = parseKnowledgeBank(next, { category: memory.category, scope: "local", path: file }).entries;
    const previous = texts[memory.category] === null ? 0 : parseKnowledgeBank(texts[memory.category]!, { category: memory.category, scope: "local", path: file }).entries.length;
    const added = parsed.at(-1);
    if (parsed.length !== previous + 1 || added?.contentHash !== memory.hash || added.name !== memory.name) {
      throw new StoreError("STORE_WRITE_FAILED", `cannot add "${memory.name}" to ${file}: the file ends inside a comment or a code block, so the entry would not read back; close it in the file, then store again`);
    }
    await writeBankFile(file, next);
    return { hash: memory.hash, action: "added", file, scope: "project", name: memory.name, category: memory.category, observationCount: 1, redacted: memory.redacted };
  });
}

interface CleanMemory {
  category: Category;
  name: string;
  description: string;
  instead: string | null;
  confidence: Confidence | null;
  hash: string;
  redacted: string[];
}

// Checks a memory and makes its text safe to write into a markdown bank: secrets redacted, and
// nothing in it that would end the entry or start another (a heading, a metadata line, a comment
// or a code fence of its own).
function cleanMemory(memory: NewMemory): CleanMemory {
  if (!(CATEGORIES as readonly string[]).includes(memory.category)) {
    throw new StoreError("INVALID_MEMORY", `cannot store a memory of category "${String(memory.category)}": use anti-patterns, heuristics or patterns`);
  }
  const redacted: string[] = [];
  const redact = (text: string) => {
    const result = redactSecrets(text);
    redacted.push(...result.findings.map((finding) => finding.kind));
    return result.text;
  };
  const name = redact(oneLine(memory.name)).replace(/^#+\s*/, "").replace(/^(?:anti-pattern|pattern|heuristic):\s*/i, "");
  if (name === "") throw new StoreError("INVALID_MEMORY", "cannot store a memory without a name: give it a short title");
  if (name.length > MAX_MEMORY_NAME) throw new StoreError("INVALID_MEMORY", `cannot store a memory whose name is ${name.length} characters long: keep it under ${MAX_MEMORY_NAME}`);
  const description = redact(memory.description)
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd().replace(/^(\s*)#/, "$1\\#").replace(/^- /, "* ").replace(/```/g, "'''").replace(/<!--/g, "&lt;!--"))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (description === "") throw new StoreError("INVALID_MEMORY", `cannot store "${name}" without a description: say what was learned`);
  if (description.length > MAX_MEMORY_DESCRIPTION) {
    throw new StoreError("INVALID_MEMORY", `cannot store "${name}": its description is ${description.length} characters long; keep a learning under ${MAX_MEMORY_DESCRIPTION}`);
  }
  const instead = memory.instead === undefined ? "" : redact(oneLine(memory.instead)).replace(/<!--/g, "&lt;!--");
  if (memory.confidence !== undefined && !["high", "medium", "low"].includes(memory.confidence)) {
    throw new StoreError("INVALID_MEMORY", `cannot store "${name}" with confidence "${String(memory.confidence)}": use high, medium or low`);
  }
  return {
    category: memory.category,
    name,
    description,
    instead: instead === "" ? null : instead,
    confidence: memory.confidence ?? null,
    hash: hashContent(description),
    redacted: [...new Set(redacted)],
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function formatBankEntry(memory: CleanMemory, now: string): string {
  return [
    `### ${HEADER_PREFIX[memory.category]}${memory.name}`,
    memory.description,
    ...(memory.instead === null ? [] : [`- Instead: ${memory.instead}`]),
    ...(memory.confidence === null ? [] : [`- Confidence: ${memory.confidence}`]),
    `- Last observed: ${now}`,
    "- Observation count: 1",
    "",
  ].join("\n");
}

async function readBankFile(path: string): Promise<string | null> {
  // Edited and written back: bytes that are not UTF-8 stay as they were.
  const file = await readTextFile(path, { lossless: true });
  if ("missing" in file) return null;
  if ("warning" in file) {
    throw new StoreError("STORE_UNREADABLE", `cannot store into ${path}: ${file.warning.message.replace(/; skipped$/, "")}; fix or move the file, then store again`);
  }
  return file.text;
}

// A knowledge bank is the user's, in their repository: it keeps its mode (new files 0644).
async function writeBankFile(path: string, content: string): Promise<void> {
  const mode = statSync(path, { throwIfNoEntry: false })?.mode;
  await writeFileAtomically(path, content, { mode: mode === undefined ? 0o644 : mode & 0o7777 });
}

async function storeGlobally(options: StoreMemoryOptions, memory: CleanMemory): Promise<StoreMemoryResult> {
  const entry: Entry = {
    name: memory.name,
    headerLine: `### ${HEADER_PREFIX[memory.category]}${memory.name}`,
    category: memory.category,
    description: memory.description,
    metadataText: memory.instead === null ? "" : `- Instead: ${memory.instead}`,
    metadata: memory.instead === null ? {} : { Instead: memory.instead },
    observationCount: 1,
    confidence: memory.confidence ?? "medium",
    lastObserved: null,
    tags: [],
    filePosition: 0,
    contentHash: memory.hash,
    scope: "local",
    origin: { path: "store_memory", line: 0 },
  };
  const result = await promoteEntries({
    projectRoot: options.projectRoot,
    globalStoreDir: options.globalStoreDir,
    selection: { kind: "entries", entries: [entry] },
    universal: [memory.name],
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const promoted = result.entries[0];
  if (promoted === undefined || promoted.kind !== "universal" || promoted.action === "kept-local") {
    throw new StoreError("STORE_WRITE_FAILED", `cannot store "${memory.name}" in the global store: promotion kept it local; store it with scope project`);
  }
  return {
    hash: memory.hash,
    action: promoted.action === "added" ? "added" : promoted.action === "counted" ? "counted" : "already-counted",
    file: join(options.globalStoreDir, `${memory.category}.md`),
    scope: "global",
    name: memory.name,
    category: memory.category,
    observationCount: promoted.observationCount ?? 1,
    redacted: memory.redacted,
  };
}
