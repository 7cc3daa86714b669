import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { CATEGORIES, parseKnowledgeBank, type Category } from "@iflow-memory/parser";
import { CLI_BIN, copyCorpus, HOOK_BIN, IN_CI, makeTempDir, REPO_ROOT, runNode, testNodes } from "@iflow-memory/test-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it, onTestFinished } from "vitest";

// The MCP server as clients start it: a process speaking stdio. The built bundle, the plugin's
// committed copy alone in a folder, `iflow-memory mcp`, and the MCP Inspector's CLI as a client
// of its own.

const BUNDLE = join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs");
const PLUGIN_BUNDLE = join(REPO_ROOT, "plugins/iflow-memory/mcp/mcp-server.cjs");
const INSPECTOR_CLI = join(REPO_ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
const QUERY = "the embedding call times out, so we retry it; where should the diagnostics be emitted?";

function workspace() {
  const base = makeTempDir("iflow-memory-mcp-stdio-");
  const project = copyCorpus("iflow-kb-2026-04", base);
  mkdirSync(join(project, ".git"));
  const store = copyCorpus("global-store-example", base);
  return { base, project, store };
}

async function stdioClient(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const transport = new StdioClientTransport({ command, args, cwd: options.cwd, env: { PATH: process.env.PATH ?? "", HOME: makeTempDir(), ...options.env }, stderr: "pipe" });
  const client = new Client({ name: "iflow-memory-test", version: "1.0.0" });
  await client.connect(transport);
  onTestFinished(() => client.close());
  await client.listTools();
  return client;
}

async function searchNames(client: Client, query = QUERY): Promise<string[]> {
  const answer = (await client.callTool({ name: "search_memory", arguments: { query } })) as { isError?: boolean; structuredContent?: { results: Array<{ name: string }> } };
  expect(answer.isError ?? false).toBe(false);
  return answer.structuredContent!.results.map((result) => result.name);
}

describe.each(testNodes())("the MCP server bundle on $label", ({ executable, missing }) => {
  it.skipIf(executable === null && !IN_CI)(`serves the project it is started in${missing === undefined ? "" : ` (${missing})`}`, async () => {
    expect(executable, missing).not.toBeNull();
    const { project, store } = workspace();
    const client = await stdioClient(executable!, [BUNDLE, "--global-store", store], { cwd: join(project, "docs") });
    expect(client.getServerVersion()).toMatchObject({ name: "iflow-memory" });
    expect((await searchNames(client)).slice(0, 3)).toContain("Wrapper-Side Emission Outside @with_retry");
  });
});

describe("the MCP server over stdio", () => {
  it("runs from the plugin's committed bundle copied alone into a folder, without node_modules", async () => {
    const { base, project, store } = workspace();
    const alone = join(base, "plugin-copy");
    mkdirSync(alone);
    copyFileSync(PLUGIN_BUNDLE, join(alone, "mcp-server.cjs"));
    expect(readdirSync(alone)).toEqual(["mcp-server.cjs"]);
    const client = await stdioClient(process.execPath, [join(alone, "mcp-server.cjs")], { cwd: project, env: { IFLOW_MEMORY_HOME: store } });
    expect((await searchNames(client)).slice(0, 3)).toContain("Wrapper-Side Emission Outside @with_retry");
    const stored = (await client.callTool({ name: "store_memory", arguments: { category: "patterns", name: "Plugin Copy Works", description: "The plugin's bundle serves without node_modules." } })) as { structuredContent?: { action: string } };
    expect(stored.structuredContent?.action).toBe("added");
  });

  it("runs as `iflow-memory mcp`, with --project-root", async () => {
    const { base, project, store } = workspace();
    const client = await stdioClient(process.execPath, [CLI_BIN, "mcp", "--project-root", project, "--global-store", store], { cwd: base });
    expect((await searchNames(client)).slice(0, 3)).toContain("Wrapper-Side Emission Outside @with_retry");
  });

  it("refuses an unknown option in one line, exit 2", async () => {
    const bundle = await runNode(BUNDLE, ["--port", "3000"], { stdin: "" });
    expect([bundle.code, bundle.stdout, bundle.stderr]).toEqual([2, "", "iflow-memory mcp: unknown option --port; the options are --project-root DIR and --global-store DIR\n"]);
    const cli = await runNode(CLI_BIN, ["mcp", "--port", "3000"], { stdin: "" });
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("answers the MCP Inspector's CLI, an independent client: tools/list and a search", async () => {
    const { base, project, store } = workspace();
    // inspector-cli 1.0.3 reads its own package.json through a path it checks against the working
    // directory (`../package.json`), not its own folder: a package.json above the folder it runs in.
    writeFileSync(join(base, "package.json"), "{}\n");
    const run = (...args: string[]) => promisify(execFile)(process.execPath, [INSPECTOR_CLI, process.execPath, BUNDLE, "--global-store", store, ...args], { cwd: project, env: { PATH: process.env.PATH ?? "", HOME: makeTempDir() } });
    const listed = JSON.parse((await run("--method", "tools/list")).stdout) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name)).toContain("search_memory");
    const called = JSON.parse((await run("--method", "tools/call", "--tool-name", "search_memory", "--tool-arg", `query=${QUERY}`, "--tool-arg", "limit=3")).stdout) as {
      structuredContent: { results: Array<{ name: string }> };
    };
    expect(called.structuredContent.results.length).toBeLessThanOrEqual(3);
    expect(called.structuredContent.results.map((result) => result.name)).toContain("Wrapper-Side Emission Outside @with_retry");
  });

  it("loses nothing when four servers store fifteen memories each into one project at once, beside a promote and session starts", async () => {
    const { base, project, store } = workspace();
    const clients = await Promise.all([0, 1, 2, 3].map(() => stdioClient(process.execPath, [BUNDLE, "--project-root", project, "--global-store", store], { cwd: base })));
    const memory = (server: number, call: number) => ({
      category: CATEGORIES[(server + call) % 3]!,
      name: `Concurrent Learning ${server}-${call}`,
      description: `Learning ${call} of server ${server}: written while three other servers and a promotion write too.`,
      scope: call % 3 === 0 ? "global" : "project",
    });
    const promote = runNode(CLI_BIN, ["promote", "--all", "--project-root", project, "--global-store", store], { cwd: base, timeoutMs: 120_000 });
    // Session starts read the files being written, and write the tracking file and the history.
    let storing = true;
    const sessionStarts = (async () => {
      const results = [];
      for (let round = 0; storing || round < 2; round++) {
        results.push(
          ...(await Promise.all(
            [0, 1].map((hook) =>
              runNode(HOOK_BIN, [], { env: { HOME: join(base, "home"), IFLOW_MEMORY_HOME: store }, stdin: JSON.stringify({ session_id: `s${round}-${hook}`, cwd: project, hook_event_name: "SessionStart", source: "startup" }) }),
            ),
          )),
        );
      }
      return results;
    })();
    const answers = await Promise.all(
      clients.map(async (client, server) => {
        const results = [];
        for (let call = 0; call < 15; call++) {
          results.push((await client.callTool({ name: "store_memory", arguments: memory(server, call) })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: { action: string } });
        }
        return results;
      }),
    );
    const promoted = await promote;
    storing = false;
    expect([promoted.code, promoted.stderr]).toEqual([0, ""]);
    for (const started of await sessionStarts) {
      expect([started.code, started.stderr]).toEqual([0, ""]);
      expect(JSON.parse(started.stdout).hookSpecificOutput.additionalContext).toContain("## Engineering Memory");
    }
    for (const answer of answers.flat()) expect([answer.isError ?? false, answer.structuredContent?.action], answer.content[0]?.text).toEqual([false, "added"]);

    const names = (directory: string, scope: "local" | "global") =>
      CATEGORIES.flatMap((category: Category) => parseKnowledgeBank(readFileSync(join(directory, `${category}.md`), "utf8"), { category, scope, path: category }).entries.map((entry) => entry.name));
    const bank = names(join(project, "docs/knowledge-bank"), "local");
    const global = names(store, "global");
    for (let server = 0; server < 4; server++) {
      for (let call = 0; call < 15; call++) {
        const { name, scope } = memory(server, call);
        const where = scope === "project" ? bank : global;
        expect(where.filter((item) => item === name), `${name} in the ${scope} files`).toHaveLength(1);
      }
    }
    expect(readdirSync(store).filter((file) => file.includes(".tmp") || file === ".lock" || file === ".commit.json")).toEqual([]);
    expect(readdirSync(join(project, "docs/knowledge-bank")).filter((file) => file.includes(".tmp") || file === ".lock")).toEqual([]);
  });
});
