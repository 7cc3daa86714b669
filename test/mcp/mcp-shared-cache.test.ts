import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyCorpus, HOOK_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it, onTestFinished } from "vitest";

// The MCP server bundle and the session-start hook share the store's cached index: the server's
// first search reads what the hook wrote, and its answers are those of a server that read the
// files itself.

const BUNDLE = join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs");
const QUERIES = ["the embedding call times out and we retry it", "tests pass locally but the migration fails in CI", "plan the order of implementation phases", "center a div with CSS grid"];

type Answer = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: Record<string, unknown> };

/** A copy of the real bank and the global-store example, settled (the caches keep only files unchanged for two seconds). */
async function settledWorkspace() {
  const base = makeTempDir("iflow-memory-mcp-cache-");
  const project = copyCorpus("iflow-kb-2026-04", base);
  mkdirSync(join(project, ".git"));
  const store = copyCorpus("global-store-example", base);
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  return { base, project, store, env: { HOME: join(base, "home"), IFLOW_MEMORY_HOME: store } };
}

async function server(project: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE, "--project-root", project], env: { PATH: process.env.PATH ?? "", ...env }, stderr: "pipe" });
  const client = new Client({ name: "iflow-memory-test", version: "1.0.0" });
  await client.connect(transport);
  onTestFinished(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = (await client.callTool({ name, arguments: args })) as Answer;
    expect(answer.isError ?? false, answer.content[0]?.text).toBe(false);
    return answer.structuredContent!;
  };
  return { client, call };
}

/** Every search's results and every result's get_memory, as a client sees them. */
async function answers(call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>) {
  const searches = [];
  for (const query of QUERIES) searches.push(await call("search_memory", { query, limit: 50 }));
  const hashes = [...new Set(searches.flatMap((search) => (search.results as Array<{ hash: string }>).map((result) => result.hash)))];
  const memories = [];
  for (const hash of hashes) memories.push(await call("get_memory", { hash }));
  return { searches, memories };
}

const cacheFiles = (store: string) => (existsSync(join(store, ".cache")) ? readdirSync(join(store, ".cache")).filter((name) => name.startsWith("injection-")).sort() : []);

async function until(condition: () => boolean): Promise<void> {
  for (let wait = 0; wait < 200 && !condition(); wait++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(condition()).toBe(true);
}

describe("the MCP server and the hooks' cache", () => {
  it("answers from the session-start hook's cache as it answers from the files, and leaves the cache for the next reader when there was none", async () => {
    const { project, store, env } = await settledWorkspace();
    // No cache: the server reads the files, answers, then caches them.
    const fresh = await server(project, env);
    const fromFiles = await answers(fresh.call);
    await until(() => cacheFiles(store).some((name) => name.endsWith(".ranking.json")));
    const written = cacheFiles(store).map((name) => statSync(join(store, ".cache", name)).mtimeMs);

    // The hook finds the server's cache valid: it writes nothing.
    const hook = await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ cwd: project, source: "startup" }) });
    expect(hook.stdout).toContain("Engineering Memory");
    expect(cacheFiles(store).filter((name) => !name.endsWith(".plan.json")).map((name) => statSync(join(store, ".cache", name)).mtimeMs)).toEqual(written);

    // The hook's own cache, read by a new server: the ranking's file written by the background
    // process the hook starts (its claim released when it is written).
    rmSync(join(store, ".cache"), { recursive: true });
    await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ cwd: project, source: "startup" }) });
    await until(() => cacheFiles(store).some((name) => name.endsWith(".ranking.json")) && !cacheFiles(store).some((name) => name.endsWith(".refreshing")));
    expect(cacheFiles(store).some((name) => name.endsWith(".ranking.json"))).toBe(true);
    const cached = await server(project, env);
    expect(await answers(cached.call)).toEqual(fromFiles);
  });

  it("searches what store_memory added and what record_feedback moved, as a new server does", async () => {
    const { project, store, env } = await settledWorkspace();
    await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ cwd: project, source: "startup" }) });
    const { call } = await server(project, env);
    const query = "flamingo feeding schedules for the embedding call";
    const before = (await call("search_memory", { query, limit: 50 })).results as Array<{ hash: string; name: string }>;
    const stored = await call("store_memory", { category: "heuristics", name: "Flamingo Feeding Schedules", description: "Flamingo feeding schedules are kept in the embedding call's retry table." });
    const afterStore = (await call("search_memory", { query, limit: 50 })).results as Array<{ hash: string; name: string; score: number }>;
    expect(afterStore[0]).toMatchObject({ hash: stored.hash, name: "Flamingo Feeding Schedules" });
    expect(afterStore.length).toBe(before.length + 1);
    const last = afterStore.at(-1)!;
    for (let vote = 0; vote < 5; vote++) await call("record_feedback", { hash: last.hash, helpful: true });
    const afterVotes = await call("search_memory", { query, limit: 50 });
    const anew = await server(project, env);
    expect(afterVotes).toEqual(await anew.call("search_memory", { query, limit: 50 }));
    expect((afterVotes.results as Array<{ hash: string; score: number }>).find((result) => result.hash === last.hash)!.score).toBeGreaterThan(last.score);
  });

  it("ignores a damaged cache and another version's, and answers as from the files", async () => {
    const { project, store, env } = await settledWorkspace();
    const fromFiles = await answers((await server(project, env)).call);
    await until(() => cacheFiles(store).some((name) => name.endsWith(".ranking.json")));
    const ranking = join(store, ".cache", cacheFiles(store).find((name) => name.endsWith(".ranking.json"))!);
    writeFileSync(ranking, '{"fingerprint":"0.0.1\\tformat 1","index":{"postings":{}},"offsets":[0],"contentHash":[]}\n');
    expect(await answers((await server(project, env)).call)).toEqual(fromFiles);
    await until(() => statSync(ranking).size > 1_000);
    writeFileSync(ranking, "{ cut sho");
    expect(await answers((await server(project, env)).call)).toEqual(fromFiles);
  });
});
