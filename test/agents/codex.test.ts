import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HistoryRecord } from "@iflow-memory/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentWorkspace, codexInputs, configureCodex, developerTexts, MOCK_REPLY, runCodex, setupAgent, startMockModelApi, type MockModelApi } from "./harness.js";

// The real Codex CLI (@openai/codex, pinned in pnpm-workspace.yaml), run as `codex exec` in a temp
// HOME against a mock of the Responses API on 127.0.0.1.
const PROMPT = "the checkout client retries a POST after a timeout and charged a card twice";
const BLOCK_START = "## Engineering Memory (from knowledge bank)\n\n### Anti-Patterns to Avoid\n";

describe("Codex CLI with iflow-memory setup codex", () => {
  let api: MockModelApi;
  beforeEach(async () => {
    api = await startMockModelApi();
  });
  afterEach(async () => {
    await api.close();
  });

  it("gives the model the session-start block and the prompt's block, and records both as Codex's", async () => {
    const { home, project } = agentWorkspace();
    configureCodex(home, api);
    await setupAgent("codex", home);
    const run = await runCodex({ home, cwd: project, prompt: PROMPT });
    expect([run.code, run.stdout.trim()]).toEqual([0, MOCK_REPLY]);
    const [input] = codexInputs(api.requests);
    const memory = developerTexts(input ?? []).filter((text) => text.startsWith(BLOCK_START));
    // The start gives its one entry; the prompt adds what it is about, not that again.
    expect(memory.map((text) => text.slice(BLOCK_START.length).split("\n")[0])).toEqual(["### Anti-Pattern: Mocking the Database in Integration Tests", "### Anti-Pattern: Retrying Non-Idempotent Requests"]);
    // Codex puts the session start's context before the user's prompt, and the prompt's right after it.
    const roles = (input ?? []).map((item) => (item.role === "user" && item.content?.[0]?.text === PROMPT ? "prompt" : item.role === "developer" && item.content?.[0]?.text?.startsWith(BLOCK_START) === true ? "memory" : "other"));
    expect(roles.filter((role) => role !== "other")).toEqual(["memory", "prompt", "memory"]);
    const history = readFileSync(join(home, ".claude/iflow/memory/.history.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as HistoryRecord);
    expect(history.map((record) => [record.agent, record.event])).toEqual([
      ["codex", "startup"],
      ["codex", "prompt"],
    ]);
  });

  it("answers the model's search_memory call with entries of the bank, through the MCP server setup registered, in the store the hooks use", async () => {
    const { home, project } = agentWorkspace();
    // A store of the user's choosing: Codex passes only a few variables to an MCP server by default.
    const store = join(home, "shared-store");
    configureCodex(home, api);
    await setupAgent("codex", home);
    api.replyNext({ tool: "search_memory", namespace: "mcp__iflow_memory", args: { query: "retry a payment request after a timeout" } }, { text: "Done." });
    const run = await runCodex({ home, cwd: project, prompt: "hello", env: { IFLOW_MEMORY_HOME: store } });
    expect([run.code, run.stdout.trim()]).toEqual([0, "Done."]);
    const second = codexInputs(api.requests)[1] ?? [];
    const output = second.find((item) => item.type === "function_call_output")?.output ?? "";
    expect(output).toContain('"name":"Retrying Non-Idempotent Requests"');
    // The search is in that store's history too, beside the session start's, as codex's (its MCP client's name).
    const history = readFileSync(join(store, ".history.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as HistoryRecord);
    expect(history.map((record) => [record.agent, record.event])).toEqual([["codex", "startup"], ["codex", "search"]]);
    expect(history.filter((record) => record.event === "search").map((record) => [record.agent, record.query])).toEqual([["codex", "retry a payment request after a timeout"]]);
  });

  it("runs no hook the user has not trusted: without the /hooks review (or the bypass flag) the model gets no memory", async () => {
    const { home, project } = agentWorkspace();
    configureCodex(home, api);
    await setupAgent("codex", home);
    const run = await runCodex({ home, cwd: project, prompt: PROMPT, trustHooks: false });
    expect(run.code).toBe(0);
    const [input] = codexInputs(api.requests);
    expect(developerTexts(input ?? []).filter((text) => text.includes("Engineering Memory"))).toEqual([]);
    expect(input?.some((item) => item.role === "user" && item.content?.[0]?.text === PROMPT)).toBe(true);
  });
});
