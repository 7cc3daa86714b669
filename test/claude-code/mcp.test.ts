import { CLI_BIN, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { demoWorkspace as workspace, messagesRequests, type MockMessagesApi, requestTexts, runClaude, textReply, toolResult, toolUseReply } from "./harness.js";

// The MCP server in a real Claude Code session: the mock model calls search_memory, Claude Code
// runs it on our server, and the tool's result — entries of the bank — comes back to the model.

const QUERY = "integration tests that mock the database";

async function claude(api: MockMessagesApi, home: string, cwd: string, args: string[]): Promise<void> {
  const run = await runClaude({ api, home, cwd, args });
  expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
}

/** Has the model call `tool` once, then checks that the tool's result reached the next request. */
async function expectSearchResultReachedTheModel(api: MockMessagesApi, home: string, project: string, tool: string): Promise<void> {
  const call = toolUseReply(tool, { query: QUERY, limit: 3 });
  api.replyNext(call, textReply("Noted."));
  const run = await runClaude({ api, home, cwd: project, prompt: "What do we know about testing against the database?", args: ["--allowedTools", tool], timeoutMs: 60_000 });
  expect({ code: run.code, reply: run.result?.result }, run.stderr).toEqual({ code: 0, reply: "Noted." });
  const requests = messagesRequests(run.requests);
  // Claude Code 2.1 defers MCP tools behind its ToolSearch tool (their names are not in \`tools\`),
  // but it announces the server's instructions to the model and runs the call.
  expect(requestTexts(requests[0]!).some((text) => text.includes("search_memory before you design or implement"))).toBe(true);
  const result = toolResult(run.requests, (call.content[0] as { id: string }).id);
  expect(result).not.toBeNull();
  expect(result!.isError, result!.text).toBe(false);
  const answer = JSON.parse(result!.text) as { results: Array<{ name: string; scope: string; text: string }> };
  expect(answer.results[0]).toMatchObject({ name: "Mocking the Database in Integration Tests", scope: "project" });
  expect(answer.results[0]!.text.startsWith("### Anti-Pattern: Mocking the Database in Integration Tests\n")).toBe(true);
}

describe("the MCP server, in a real Claude Code session", () => {
  it("answers the model's search_memory once `iflow-memory setup claude` has registered it", async () => {
    const { home, project, api } = await workspace();
    expect((await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } })).code).toBe(0);
    await expectSearchResultReachedTheModel(api, home, project, "mcp__iflow-memory__search_memory");
  });

  it("answers the model's search_memory once the plugin is installed", async () => {
    const { home, project, api } = await workspace();
    await claude(api, home, project, ["plugin", "marketplace", "add", REPO_ROOT]);
    await claude(api, home, project, ["plugin", "install", "iflow-memory@iflow-memory"]);
    await expectSearchResultReachedTheModel(api, home, project, "mcp__plugin_iflow-memory_memory__search_memory");
  });

  it("is reported connected by `claude mcp get` after setup, and gone after --uninstall", async () => {
    const { home, project, api } = await workspace();
    expect((await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } })).code).toBe(0);
    const listed = await runClaude({ api, home, cwd: project, args: ["mcp", "get", "iflow-memory"] });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/Scope: User config[\s\S]*Status: ✔ Connected[\s\S]*Args: .*mcp-server\.cjs/);
    expect((await runNode(CLI_BIN, ["setup", "claude", "--uninstall"], { env: { HOME: home } })).code).toBe(0);
    const gone = await runClaude({ api, home, cwd: project, args: ["mcp", "get", "iflow-memory"] });
    expect(gone.code).not.toBe(0);
  });
});
