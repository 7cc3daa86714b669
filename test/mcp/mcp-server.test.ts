import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMemoryServer } from "@iflow-memory/mcp-server";
import { CATEGORIES, parseKnowledgeBank } from "@iflow-memory/parser";
import { searchMemory } from "@iflow-memory/store";
import { CLI_BIN, copyCorpus, dedent, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";

// The MCP server driven by the SDK's own Client, in-process (InMemoryTransport), over a copy of
// the real 2026-04 knowledge bank and the global-store example.

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

function workspace() {
  const base = makeTempDir("iflow-memory-mcp-");
  const project = copyCorpus("iflow-kb-2026-04", base);
  const store = copyCorpus("global-store-example", base);
  return { base, project, store };
}

async function connect(options: { projectRoot?: string; globalStoreDir: string; cwd?: string; roots?: string[] }) {
  const server = createMemoryServer({ projectRoot: options.projectRoot, globalStoreDir: options.globalStoreDir, env: {}, cwd: options.cwd ?? makeTempDir() });
  const client = new Client({ name: "iflow-memory-test", version: "1.0.0" }, options.roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } });
  if (options.roots !== undefined) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: "project" })) }));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  onTestFinished(() => client.close());
  // Listing caches each tool's output schema: from then on the client checks every structured result against it.
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  return { client, call };
}

/** The structured result of a call that must succeed; its text is the same JSON. */
function ok(answer: ToolAnswer): Record<string, unknown> {
  expect(answer.isError ?? false, answer.content[0]?.text).toBe(false);
  expect(JSON.parse(answer.content[0]!.text!)).toEqual(answer.structuredContent);
  return answer.structuredContent!;
}

/** The one line of an error result. */
function error(answer: ToolAnswer): string {
  expect(answer.isError).toBe(true);
  const text = answer.content[0]!.text!;
  expect(text).not.toContain("\n");
  return text;
}

type Result = { hash: string; name: string; category: string; scope: string; score: number; text: string };

describe("the MCP server, through the SDK's client", () => {
  it("lists six tools, each with an input and an output schema, and tells the agent when to use them", async () => {
    const { project, store } = workspace();
    const { client } = await connect({ projectRoot: project, globalStoreDir: store });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["forget_memory", "get_memory", "list_memories", "record_feedback", "search_memory", "store_memory"]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.description?.length).toBeGreaterThan(40);
    }
    expect(tools.find((tool) => tool.name === "search_memory")?.inputSchema.required).toEqual(["query"]);
    expect(client.getInstructions()).toMatch(/search_memory before you design or implement/);
    expect(client.getInstructions()).toMatch(/store_memory when you found and fixed a mistake/);
  });

  it("searches with the hooks' ranking: the same entries in the same order as searchMemory, text included", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const query = "the embedding call times out, so we retry it; where should the diagnostics be emitted?";
    const { results } = ok(await call("search_memory", { query })) as { results: Result[] };
    const expected = await searchMemory({ projectRoot: project, globalStoreDir: store, query, limit: 10 });
    expect(results.map((result) => result.hash)).toEqual(expected.results.map((ranked) => ranked.entry.contentHash));
    expect(results.length).toBeGreaterThan(0);
    expect(results.slice(0, 3).map((result) => result.name)).toContain("Wrapper-Side Emission Outside @with_retry");
    const top = results.find((result) => result.name === "Wrapper-Side Emission Outside @with_retry")!;
    expect(top).toMatchObject({ category: "patterns", scope: "project" });
    expect(top.text.startsWith("### Pattern: Wrapper-Side Emission Outside @with_retry\nWhen adding diagnostics")).toBe(true);
    for (let index = 1; index < results.length; index++) expect(results[index]!.score).toBeLessThanOrEqual(results[index - 1]!.score);
  });

  it("finds little or nothing for work the memory knows nothing of, and honours limit and scope", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const unrelated = ok(await call("search_memory", { query: "center the hero image with CSS grid on the marketing landing page" })) as { results: Result[] };
    expect(unrelated.results.length).toBeLessThanOrEqual(2);
    const limited = ok(await call("search_memory", { query: "bulk rename left stale references", limit: 2 })) as { results: Result[] };
    expect(limited.results.length).toBe(2);
    const global = ok(await call("search_memory", { query: "bulk rename left stale references", scope: "global" })) as { results: Result[] };
    expect(global.results.length).toBeGreaterThan(0);
    expect(new Set(global.results.map((result) => result.scope))).toEqual(new Set(["global"]));
    const local = ok(await call("search_memory", { query: "bulk rename left stale references", scope: "project" })) as { results: Result[] };
    expect(new Set(local.results.map((result) => result.scope))).toEqual(new Set(["project"]));
  });

  it("stores a learning in the project's bank in its own format, counts the same content again, and redacts secrets", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const file = join(project, "docs/knowledge-bank/anti-patterns.md");
    const before = readFileSync(file, "utf8");
    const learning = {
      category: "anti-patterns",
      name: "Unbounded Embedding Retries",
      description: "Retrying the embedding call without an overall deadline hung a session for minutes; the retry log printed the key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMn.",
      instead: "Give every retry loop an overall deadline",
      confidence: "high",
    };
    const added = ok(await call("store_memory", learning));
    expect(added).toMatchObject({ action: "added", file, observationCount: 1, redacted: ["anthropic-key"] });
    const after = readFileSync(file, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toMatch(
      /^\n### Anti-Pattern: Unbounded Embedding Retries\nRetrying the embedding call without an overall deadline hung a session for minutes; the retry log printed the key \[REDACTED\]\.\n- Instead: Give every retry loop an overall deadline\n- Confidence: high\n- Last observed: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n- Observation count: 1\n$/,
    );
    const parsed = parseKnowledgeBank(after, { category: "anti-patterns", scope: "local", path: file }).entries;
    expect(parsed.at(-1)).toMatchObject({ name: "Unbounded Embedding Retries", contentHash: added.hash, confidence: "high", observationCount: 1 });

    const again = ok(await call("store_memory", { ...learning, name: "Same Learning, Other Title" }));
    expect(again).toMatchObject({ action: "counted", hash: added.hash, observationCount: 2 });
    const counted = parseKnowledgeBank(readFileSync(file, "utf8"), { category: "anti-patterns", scope: "local", path: file }).entries;
    expect(counted.length).toBe(parsed.length);
    expect(counted.at(-1)?.observationCount).toBe(2);

    // The stored entry is found by the next search (the server re-reads a changed file).
    const { results } = ok(await call("search_memory", { query: "embedding retries hang without a deadline" })) as { results: Result[] };
    expect(results[0]?.hash).toBe(added.hash);
  });

  it("keeps a description that looks like markdown structure inside its entry", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const file = join(project, "docs/knowledge-bank/heuristics.md");
    const count = () => parseKnowledgeBank(readFileSync(file, "utf8"), { category: "heuristics", scope: "local", path: file }).entries;
    const before = count().length;
    const description = "Check the lock first.\n### Not a heading\n- Not: metadata\n<!-- not a comment\n```\nnot a fence";
    const stored = ok(await call("store_memory", { category: "heuristics", name: "### Lock Before Read", description }));
    const entries = count();
    expect(entries.length).toBe(before + 1);
    expect(entries.at(-1)).toMatchObject({ name: "Lock Before Read", headerLine: "### Lock Before Read", contentHash: stored.hash });
    expect(entries.at(-1)?.description).toBe("Check the lock first.\n\\### Not a heading\n* Not: metadata\n&lt;!-- not a comment\n'''\nnot a fence");
  });

  it("stores into the global store through promotion: provenance, dedup, tags", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const learning = { category: "patterns", name: "Deadline Per Retry Loop", description: "Every retry loop gets one overall deadline, not only a per-attempt timeout.", scope: "global" };
    const added = ok(await call("store_memory", learning));
    expect(added).toMatchObject({ action: "added", file: join(store, "patterns.md"), observationCount: 1 });
    const entries = parseKnowledgeBank(readFileSync(join(store, "patterns.md"), "utf8"), { category: "patterns", scope: "global", path: "patterns.md" }).entries;
    const entry = entries.find((item) => item.contentHash === added.hash)!;
    expect(entry.name).toBe("Deadline Per Retry Loop");
    expect(entry.metadata.Source).toBe("iflow-kb-2026-04");
    expect(entry.tags).toEqual(["universal"]);
    expect(ok(await call("store_memory", learning))).toMatchObject({ action: "already-counted", observationCount: 1 });
  });

  it("gets and lists memories by hash, scope and category, a page at a time", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const all = ok(await call("list_memories", { limit: 500 })) as { total: number; memories: Array<{ hash: string; scope: string; category: string }> };
    const bankCount = CATEGORIES.reduce((sum, category) => sum + parseKnowledgeBank(readFileSync(join(project, `docs/knowledge-bank/${category}.md`), "utf8"), { category, scope: "local", path: category }).entries.length, 0);
    expect(all.total).toBeGreaterThan(bankCount);
    expect(all.memories.length).toBe(Math.min(all.total, 500));
    const page = ok(await call("list_memories", { scope: "global", category: "anti-patterns", limit: 2, offset: 1 })) as typeof all;
    expect(page.memories.length).toBe(2);
    expect(page.memories.every((memory) => memory.scope === "global" && memory.category === "anti-patterns")).toBe(true);

    const hash = all.memories[0]!.hash;
    const memory = ok(await call("get_memory", { hash: hash.slice(0, 8) }));
    expect(memory).toMatchObject({ hash, scope: "project", feedback: { helpful: 0, unhelpful: 0 } });
    expect(String(memory.text).startsWith("### ")).toBe(true);
    expect(String(memory.file)).toMatch(/docs\/knowledge-bank\/anti-patterns\.md:\d+$/);
  });

  it("forgets a global memory into the archive, and sends a project's own memory back to its repository", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    // (Every entry of the global-store example is in this bank too: a global-only one is stored first.)
    const stored = ok(await call("store_memory", { category: "heuristics", name: "Pin Tool Majors", description: "Pin the major version of every build tool in one catalog.", scope: "global" }));
    const target = { hash: String(stored.hash), name: "Pin Tool Majors" };
    expect(ok(await call("forget_memory", { hash: `sha256:${target.hash}` }))).toEqual({ hash: target.hash, name: target.name, archive: join(store, ".archive.md") });
    expect(readFileSync(join(store, ".archive.md"), "utf8")).toContain(target.name);
    expect(error(await call("get_memory", { hash: target.hash }))).toBe(`cannot get "${target.hash}": no memory has that hash; search_memory and list_memories give each memory's hash`);

    const local = ok(await call("list_memories", { scope: "project", limit: 1 })) as { memories: Array<{ hash: string; name: string }> };
    expect(error(await call("forget_memory", { hash: local.memories[0]!.hash }))).toMatch(/is in this project's knowledge bank \(.*anti-patterns\.md:\d+\), not the global store: remove it by editing the bank in the repository$/);
  });

  it("answers bad input with one line and goes on serving", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    expect(error(await call("search_memory", {}))).toBe("search_memory: query is required: the task or the error, in plain words");
    expect(error(await call("search_memory", { query: 42, limit: "ten" }))).toBe("search_memory: query is required: the task or the error, in plain words; limit must be a number");
    expect(error(await call("search_memory", { query: "x".repeat(200_000) }))).toBe("search_memory: query is too long: keep it under 10000 characters (a description of the work, not a file)");
    expect(error(await call("search_memory", { query: "retries", scope: "everything" }))).toBe("search_memory: scope must be all, project or global");
    expect(error(await call("get_memory", { hash: "0123456789abcdef" }))).toBe('cannot get "0123456789abcdef": no memory has that hash; search_memory and list_memories give each memory\'s hash');
    expect(error(await call("get_memory", { hash: "ab" }))).toBe("get_memory: hash must be at least 4 hex digits of a content hash");
    expect(error(await call("record_feedback", { hash: "0123456789abcdef" }))).toBe("record_feedback: helpful is required: true or false");
    expect(error(await call("store_memory", { category: "bugs", name: "", description: "x" }))).toBe("store_memory: category must be anti-patterns, heuristics or patterns; name is empty: give a short title");
    expect(error(await call("no_such_tool", {}))).toMatch(/^no tool named "no_such_tool": the tools are search_memory, /);
    const { results } = ok(await call("search_memory", { query: "bulk rename left stale references" })) as { results: Result[] };
    expect(results.length).toBeGreaterThan(0);
  });

  it("reports an unreadable bank file: a search says so beside what it found, a store into it fails in one line", async () => {
    const { project, store } = workspace();
    const file = join(project, "docs/knowledge-bank/anti-patterns.md");
    rmSync(file);
    mkdirSync(file);
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const found = ok(await call("search_memory", { query: "bulk rename left stale references" })) as { results: Result[]; warnings: string[] };
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.warnings).toEqual([`${file}: is a directory, not a file; skipped`]);
    expect(error(await call("store_memory", { category: "heuristics", name: "N", description: "D" }))).toBe(`cannot store into ${file}: is a directory, not a file; fix or move the file, then store again`);
  });

  it("takes the project from the client's roots when no project root is given", async () => {
    const { project, store } = workspace();
    const { call } = await connect({ globalStoreDir: store, roots: [join(project, "docs")] });
    const { results } = ok(await call("search_memory", { query: "the embedding call retries; emit diagnostics outside the retry", scope: "project" })) as { results: Result[] };
    expect(results.map((result) => result.name)).toContain("Wrapper-Side Emission Outside @with_retry");
  });

  it("lets feedback move an entry below its equals, in MCP searches and in the CLI's search and inject alike", async () => {
    const { project, store } = workspace();
    // Two entries any query matches equally (the same words in another order), among the real bank's.
    appendFileSync(
      join(project, "docs/knowledge-bank/heuristics.md"),
      dedent`

        ### Upload Retries A
        Retry the flaky upload with a deadline.
        - Observation count: 1

        ### Upload Retries B
        With a deadline, retry the flaky upload.
        - Observation count: 1
      `,
    );
    const { call } = await connect({ projectRoot: project, globalStoreDir: store });
    const pair = (names: string[]) => names.filter((name) => name.startsWith("Upload Retries"));
    const order = async () => pair(((ok(await call("search_memory", { query: "flaky upload retry deadline" })) as { results: Result[] }).results).map((result) => result.name));
    // Equal but for recency: B, written later, comes first.
    expect(await order()).toEqual(["Upload Retries B", "Upload Retries A"]);
    const b = ((ok(await call("search_memory", { query: "flaky upload retry deadline" })) as { results: Result[] }).results).find((result) => result.name === "Upload Retries B")!;
    for (let vote = 0; vote < 3; vote++) expect(ok(await call("record_feedback", { hash: b.hash, helpful: false, note: "too vague to act on" }))).toMatchObject({ hash: b.hash, unhelpful: vote + 1, helpful: 0 });
    expect(await order()).toEqual(["Upload Retries A", "Upload Retries B"]);

    const cli = await runNode(CLI_BIN, ["search", "flaky", "upload", "retry", "deadline", "--project-root", project, "--global-store", store, "--json"]);
    expect(pair((JSON.parse(cli.stdout) as Array<{ name: string }>).map((item) => item.name))).toEqual(["Upload Retries A", "Upload Retries B"]);
    const inject = await runNode(CLI_BIN, ["inject", "--query", "flaky upload retry deadline", "--project-root", project, "--global-store", store, "--no-tracking", "--json"]);
    expect(pair((JSON.parse(inject.stdout) as { entries: Array<{ name: string }> }).entries.map((entry) => entry.name))).toEqual(["Upload Retries A", "Upload Retries B"]);
    const show = await runNode(CLI_BIN, ["show", b.hash, "--project-root", project, "--global-store", store]);
    expect(show.stdout).toContain("feedback: 0 helpful, 3 not helpful; last note: too vague to act on\n");
  });
});
