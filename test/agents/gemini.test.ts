import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HistoryRecord } from "@iflow-memory/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentWorkspace, configureGemini, GEMINI_SETTINGS, geminiContents, MOCK_REPLY, runGemini, setupAgent, startMockModelApi, type MockModelApi } from "./harness.js";

// The real Gemini CLI (@google/gemini-cli, pinned in pnpm-workspace.yaml), run as `gemini -p` in a
// temp HOME against a mock of the Gemini API on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL).
const PROMPT = "the checkout client retries a POST after a timeout and charged a card twice";
const BLOCK_START = "<hook_context>## Engineering Memory (from knowledge bank)\n\n### Anti-Patterns to Avoid\n";

describe("Gemini CLI with iflow-memory setup gemini", () => {
  let api: MockModelApi;
  beforeEach(async () => {
    api = await startMockModelApi();
  });
  afterEach(async () => {
    await api.close();
  });

  it("gives the model the session-start block with the prompt and the BeforeAgent block after it, and records both as Gemini's", async () => {
    const { home, project } = agentWorkspace();
    configureGemini(home);
    await setupAgent("gemini", home);
    // Its settings kept their comment: Gemini CLI reads them so.
    expect(readFileSync(join(home, ".gemini/settings.json"), "utf8")).toContain(GEMINI_SETTINGS.split("\n")[1]);
    const run = await runGemini({ home, cwd: project, prompt: PROMPT, api });
    expect([run.code, run.stdout.trim()]).toEqual([0, MOCK_REPLY]);
    const [contents] = geminiContents(api.requests);
    const texts = (contents ?? []).flatMap((content) => (content.parts ?? []).map((part) => part.text ?? ""));
    const memory = texts.filter((text) => text.startsWith(BLOCK_START));
    // Headless, Gemini CLI prepends the session start's context to the prompt and appends the
    // prompt's: the start gives its one entry, the prompt adds what it is about, not that again.
    expect(memory.map((text) => text.slice(BLOCK_START.length).split("\n")[0])).toEqual(["### Anti-Pattern: Mocking the Database in Integration Tests", "### Anti-Pattern: Retrying Non-Idempotent Requests"]);
    expect(memory[0]?.endsWith(`</hook_context>\n\n${PROMPT}`)).toBe(true);
    const history = readFileSync(join(home, ".claude/iflow/memory/.history.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as HistoryRecord);
    expect(history.map((record) => [record.agent, record.event])).toEqual([
      ["gemini", "startup"],
      ["gemini", "prompt"],
    ]);
  });

  it("answers the model's search_memory call with entries of the bank, through the MCP server setup registered", async () => {
    const { home, project } = agentWorkspace();
    configureGemini(home);
    await setupAgent("gemini", home);
    api.replyNext({ tool: "mcp_iflow-memory_search_memory", args: { query: "retry a payment request after a timeout" } }, { text: "Done." });
    const run = await runGemini({ home, cwd: project, prompt: "hello", api });
    expect([run.code, run.stdout.trim()]).toEqual([0, "Done."]);
    const second = geminiContents(api.requests)[1] ?? [];
    const response = second.flatMap((content) => content.parts ?? []).find((part) => part.functionResponse !== undefined)?.functionResponse;
    expect(response?.name).toBe("mcp_iflow-memory_search_memory");
    expect(JSON.stringify(response?.response)).toContain("Retrying Non-Idempotent Requests");
    // The search is in the history too, as gemini's (its MCP client's name).
    const history = readFileSync(join(home, ".claude/iflow/memory/.history.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as HistoryRecord);
    expect(history.filter((record) => record.event === "search").map((record) => [record.agent, record.query])).toEqual([["gemini", "retry a payment request after a timeout"]]);
  });
});
