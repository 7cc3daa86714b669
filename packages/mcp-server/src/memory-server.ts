import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, RootsListChangedNotificationSchema, type CallToolResult, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { serializeEntry, stripControlCharacters, type Entry } from "@iflow-memory/parser";
import {
  appendInjectionHistory,
  createHistoryRecord,
  createMemorySearcher,
  findOneEntry,
  findProjectRoot,
  forgetGlobalEntry,
  formatWarning,
  listEntries,
  projectName,
  readFeedback,
  recordFeedback,
  StoreError,
  storeMemory,
  type MemorySearcher,
} from "@iflow-memory/store";
import { z } from "zod";

declare const __IFLOW_MEMORY_VERSION__: string;
const VERSION = typeof __IFLOW_MEMORY_VERSION__ === "string" ? __IFLOW_MEMORY_VERSION__ : "0.0.0-dev";

/** What the server tells the agent about when to use it. */
export const SERVER_INSTRUCTIONS = [
  "iflow-memory holds engineering learnings (anti-patterns, heuristics, patterns) from this project's retrospectives and from your other projects.",
  "- search_memory before you design or implement something non-trivial, and when an error or a failure comes back: describe the task or the error in plain words.",
  "- store_memory when you found and fixed a mistake worth not repeating, or the user stated a preference or a rule: one learning per call, what happened and what to do instead.",
  "- record_feedback when a memory you were given helped, or misled you: the ranking learns from it.",
].join("\n");

/** The longest query a search takes: a description of work, not a file. */
export const MAX_QUERY_CHARS = 10_000;

export interface MemoryServerOptions {
  /** The project; else the client's first root, else `CLAUDE_PROJECT_DIR` or `cwd`, walked up as the hooks do. */
  projectRoot?: string | undefined;
  globalStoreDir: string;
  env: Record<string, string | undefined>;
  cwd: string;
}

const CATEGORY = z.enum(["anti-patterns", "heuristics", "patterns"], { error: "category must be anti-patterns, heuristics or patterns" });
const HASH = z
  .string({ error: "hash is required: an entry's content hash, as search_memory or list_memories return it" })
  .trim()
  .min(4, { error: "hash must be at least 4 hex digits of a content hash" })
  .max(80, { error: "hash is too long: give the 16 hex digits search_memory returns" });
const MEMORY = z.object({
  hash: z.string(),
  name: z.string(),
  category: CATEGORY,
  scope: z.enum(["project", "global"]),
});

/**
 * The iflow-memory MCP server: `search_memory`, `store_memory`, `get_memory`, `list_memories`,
 * `forget_memory` and `record_feedback` over a project's knowledge bank and the global store,
 * with the hooks' ranking. Every tool answers bad input, a missing entry or an unreadable file
 * with an error result of one line; the server itself never stops for it.
 *
 * @example
 * const server = createMemoryServer({ globalStoreDir, env: process.env, cwd: process.cwd() });
 * await server.connect(new StdioServerTransport());
 */
export function createMemoryServer(options: MemoryServerOptions): McpServer {
  const server = new McpServer({ name: "iflow-memory", version: VERSION }, { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} } });
  const searchers = new Map<string, MemorySearcher>();
  // Each tool's input shape and body. The SDK lists the tools from their registrations; calls go
  // through one handler of ours, so that bad input is one line naming what is wrong (the SDK's
  // own check prints a line per problem, with its error code), and a failure never escapes.
  const tools = new Map<string, { input: z.ZodObject<z.ZodRawShape>; run: (args: never) => Promise<Record<string, unknown>> }>();
  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    config: { title: string; description: string; inputSchema: Shape; outputSchema: z.ZodRawShape; annotations: ToolAnnotations },
    run: (args: z.infer<z.ZodObject<Shape>>) => Promise<Record<string, unknown>>,
  ) => {
    // Typed loosely: the SDK's generics over zod shapes do not follow a shape passed through.
    server.registerTool(name, config as never, (async () => failure(`${name} is answered by the server's own call handler`)) as never);
    tools.set(name, { input: z.object(config.inputSchema), run: run as (args: never) => Promise<Record<string, unknown>> });
  };
  let root: Promise<string> | null = null;

  // The project: the flag, else the client's roots (asked once, again when they change), else
  // where the server was started.
  const projectRoot = () => (root ??= resolveProjectRoot());
  const resolveProjectRoot = async (): Promise<string> => {
    if (options.projectRoot !== undefined) return resolve(options.cwd, options.projectRoot);
    if (server.server.getClientCapabilities()?.roots !== undefined) {
      try {
        const { roots } = await server.server.listRoots(undefined, { timeout: 2000 });
        const first = roots.find((item) => item.uri.startsWith("file://"));
        if (first !== undefined) return findProjectRoot(fileURLToPath(first.uri));
      } catch {
        // A client that announced roots but does not answer: the working directory.
      }
    }
    return findProjectRoot(options.env.CLAUDE_PROJECT_DIR || options.cwd);
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    root = null;
  });
  const searcher = async () => {
    const project = await projectRoot();
    let found = searchers.get(project);
    if (found === undefined) {
      found = createMemorySearcher({ projectRoot: project, globalStoreDir: options.globalStoreDir });
      searchers.set(project, found);
    }
    return { project, searcher: found };
  };
  const entry = async (hash: string, verb: string, prefer: Entry["scope"] = "local"): Promise<Entry> => {
    const sources = await (await searcher()).searcher.sources();
    return findOneEntry([...sources.local, ...sources.global], hash, { action: `cannot ${verb} "${hash}"`, notFound: "no memory has that hash; search_memory and list_memories give each memory's hash", prefer });
  };

  tool(
    "search_memory",
    {
      title: "Search memory",
      description:
        "Learnings relevant to a task or an error, best first, from this project's knowledge bank and the global store (the ranking the session hooks use). Returns few or none when nothing applies.",
      inputSchema: {
        query: z
          .string({ error: "query is required: the task or the error, in plain words" })
          .min(1, { error: "query is empty: describe the task or the error" })
          .max(MAX_QUERY_CHARS, { error: `query is too long: keep it under ${MAX_QUERY_CHARS} characters (a description of the work, not a file)` }),
        limit: z.number({ error: "limit must be a number" }).int({ error: "limit must be a whole number" }).min(1, { error: "limit must be at least 1" }).max(50, { error: "limit must be at most 50" }).optional().describe("results at most (default 10)"),
        scope: z.enum(["all", "project", "global"], { error: "scope must be all, project or global" }).optional().describe("whose memories (default all)"),
      },
      outputSchema: {
        results: z.array(MEMORY.extend({ score: z.number(), text: z.string() })),
        warnings: z.array(z.string()).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
        const { project, searcher: memory } = await searcher();
        const { results, warnings } = await memory.search(args.query, { limit: args.limit ?? 10, scope: args.scope ?? "all" });
        const items = results.map((ranked) => ({ ...describe(ranked.entry), score: Math.round(ranked.score * 1000) / 1000, text: serializeEntry(ranked.entry) }));
        const problems = warnings.map(formatWarning);
        if (results.length > 0) {
          // What a search returned is injected into the session too: one line of the injection history.
          const plan = { block: items.map((item) => item.text).join("\n"), entries: results.map((ranked) => ({ name: ranked.entry.name, contentHash: ranked.entry.contentHash, matchedTerms: ranked.matchedTerms })) };
          try {
            appendInjectionHistory(options.globalStoreDir, createHistoryRecord({ plan, project: projectName(project), session: null, event: "search", ranking: "relevance", now: new Date(), query: args.query.slice(0, 200), ...clientAgent(server.server.getClientVersion()?.name) }));
          } catch (error) {
            problems.push(`the injection history was not written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the results are unaffected`);
          }
        }
        return withWarnings({ results: items }, problems);
    },
  );

  tool(
    "store_memory",
    {
      title: "Store a memory",
      description:
        "Keeps a learning: a mistake found and fixed, a preference the user stated. Project scope (default) adds it to this project's knowledge bank; global scope to the store all projects share. The same content again raises its observation count instead of adding a copy. Secrets are redacted.",
      inputSchema: {
        category: CATEGORY.describe("anti-patterns: what to avoid; heuristics: a rule of thumb; patterns: what worked"),
        name: z.string({ error: "name is required: a short title" }).min(1, { error: "name is empty: give a short title" }).max(200, { error: "name is too long: keep it under 200 characters" }),
        description: z.string({ error: "description is required: what was learned" }).min(1, { error: "description is empty: say what was learned" }).max(4000, { error: "description is too long: keep a learning under 4000 characters" }),
        instead: z.string({ error: "instead must be text" }).max(1000, { error: "instead is too long: keep it under 1000 characters" }).optional().describe("what to do instead"),
        confidence: z.enum(["high", "medium", "low"], { error: "confidence must be high, medium or low" }).optional(),
        scope: z.enum(["project", "global"], { error: "scope must be project or global" }).optional().describe("default project"),
      },
      outputSchema: {
        hash: z.string(),
        action: z.enum(["added", "counted", "already-counted"]),
        file: z.string(),
        observationCount: z.number(),
        redacted: z.array(z.string()).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
        const result = await storeMemory({
          projectRoot: await projectRoot(),
          globalStoreDir: options.globalStoreDir,
          category: args.category,
          name: args.name,
          description: args.description,
          instead: args.instead,
          confidence: args.confidence,
          scope: args.scope ?? "project",
        });
        return {
          hash: result.hash,
          action: result.action,
          file: result.file,
          observationCount: result.observationCount,
          ...(result.redacted.length === 0 ? {} : { redacted: result.redacted }),
        };
    },
  );

  tool(
    "get_memory",
    {
      title: "Get a memory",
      description: "One memory in full, by its content hash (or a prefix of at least 4 hex digits): text, provenance, observation count, feedback.",
      inputSchema: { hash: HASH },
      outputSchema: {
        ...MEMORY.shape,
        text: z.string(),
        observationCount: z.number(),
        confidence: z.string(),
        lastObserved: z.string().nullable(),
        tags: z.array(z.string()),
        source: z.string().nullable(),
        file: z.string(),
        feedback: z.object({ helpful: z.number(), unhelpful: z.number() }),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
        const found = await entry(args.hash, "get");
        const votes = readFeedback(options.globalStoreDir).get(found.contentHash);
        return {
          ...describe(found),
          text: serializeEntry(found),
          observationCount: found.observationCount,
          confidence: found.confidence,
          lastObserved: found.lastObserved,
          tags: found.tags,
          source: Object.entries(found.metadata).find(([key]) => /^(source|observed in|used in)$/i.test(key))?.[1] ?? null,
          file: `${found.origin.path}:${found.origin.line}`,
          feedback: { helpful: votes?.helpful ?? 0, unhelpful: votes?.unhelpful ?? 0 },
        };
    },
  );

  tool(
    "list_memories",
    {
      title: "List memories",
      description: "Memories in injection order (anti-patterns, heuristics, patterns; the project's before the global store's), by scope and category, a page at a time.",
      inputSchema: {
        scope: z.enum(["all", "project", "global"], { error: "scope must be all, project or global" }).optional().describe("default all"),
        category: CATEGORY.optional(),
        limit: z.number({ error: "limit must be a number" }).int({ error: "limit must be a whole number" }).min(1, { error: "limit must be at least 1" }).max(500, { error: "limit must be at most 500" }).optional().describe("default 100"),
        offset: z.number({ error: "offset must be a number" }).int({ error: "offset must be a whole number" }).min(0, { error: "offset must be 0 or more" }).optional(),
      },
      outputSchema: {
        total: z.number(),
        memories: z.array(MEMORY.extend({ observationCount: z.number() })),
        warnings: z.array(z.string()).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
        const scope = args.scope === "project" ? "local" : args.scope === "global" ? "global" : "all";
        const { entries, warnings } = await listEntries({ projectRoot: await projectRoot(), globalStoreDir: options.globalStoreDir, scope, ...(args.category === undefined ? {} : { category: args.category }) });
        const offset = args.offset ?? 0;
        const page = entries.slice(offset, offset + (args.limit ?? 100)).map((item) => ({ ...describe(item), observationCount: item.observationCount }));
        return withWarnings({ total: entries.length, memories: page }, warnings);
    },
  );

  tool(
    "forget_memory",
    {
      title: "Forget a memory",
      description: "Moves a global-store memory to the store's archive (never deleted). A project's own memory lives in its repository: edit its knowledge bank there.",
      inputSchema: { hash: HASH },
      outputSchema: { hash: z.string(), name: z.string(), archive: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
        const found = await entry(args.hash, "forget", "global");
        if (found.scope === "local") {
          throw new StoreError(
            "ENTRY_NOT_FOUND",
            `"${found.name}" is in this project's knowledge bank (${found.origin.path}:${found.origin.line}), not the global store: remove it by editing the bank in the repository`,
          );
        }
        const forgotten = await forgetGlobalEntry(options.globalStoreDir, found.contentHash);
        return { hash: forgotten.contentHash, name: forgotten.name, archive: resolve(options.globalStoreDir, ".archive.md") };
    },
  );

  tool(
    "record_feedback",
    {
      title: "Record feedback",
      description: "Says whether a memory helped. Memories marked unhelpful again and again sink below their equals in every ranking; helpful ones rise.",
      inputSchema: {
        hash: HASH,
        helpful: z.boolean({ error: "helpful is required: true or false" }),
        note: z.string({ error: "note must be text" }).max(2000, { error: "note is too long: keep it under 2000 characters" }).optional().describe("why, in a line"),
      },
      outputSchema: { hash: z.string(), name: z.string(), helpful: z.number(), unhelpful: z.number() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
        const { entry: found } = await recordFeedback({ globalStoreDir: options.globalStoreDir, projectRoot: await projectRoot(), hash: args.hash, helpful: args.helpful, note: args.note });
        const votes = readFeedback(options.globalStoreDir).get(found.contentHash);
        return { hash: found.contentHash, name: found.name, helpful: votes?.helpful ?? 0, unhelpful: votes?.unhelpful ?? 0 };
    },
  );

  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name;
    const found = tools.get(name);
    if (found === undefined) return failure(`no tool named "${name}": the tools are ${[...tools.keys()].join(", ")}`);
    const parsed = found.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return failure(`${name}: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
    return answer(() => found.run(parsed.data as never));
  });

  return server;
}

function describe(entry: Entry): { hash: string; name: string; category: Entry["category"]; scope: "project" | "global" } {
  return { hash: entry.contentHash, name: entry.name, category: entry.category, scope: entry.scope === "local" ? "project" : "global" };
}

function withWarnings<T extends object>(value: T, warnings: string[]): T & { warnings?: string[] } {
  return warnings.length === 0 ? value : { ...value, warnings };
}

// A tool's answer: its JSON as structured content and as text (for clients that read only
// text), or an error result of one line.
async function answer(action: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    const value = withoutControlCharacters(await action());
    return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
  } catch (error) {
    return failure(error instanceof StoreError ? error.message : `iflow-memory failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function failure(message: string): CallToolResult {
  return { content: [{ type: "text", text: stripControlCharacters(message.replace(/\s*\n\s*/g, "; ")) }], isError: true };
}

// Every string of an answer without terminal escapes or other control characters (tab and
// newline kept): a client decodes the JSON and hands the text to a model or a terminal.
function withoutControlCharacters<T>(value: T): T {
  if (typeof value === "string") return stripControlCharacters(value) as T;
  if (Array.isArray(value)) return value.map(withoutControlCharacters) as T;
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutControlCharacters(item)])) as T;
  return value;
}

// The agent a search's results went to, from the name its MCP client gave at initialization
// (Claude Code "claude-code", Codex "codex-mcp-client", Gemini CLI "gemini-cli-mcp-client"…).
function clientAgent(name: string | undefined): { agent?: string } {
  if (name === undefined) return {};
  const known = /claude|codex|gemini/i.exec(name);
  return { agent: known === null ? name : known[0].toLowerCase() };
}
