import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, HOOK_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { hookContextText, messagesRequests, type MockMessagesApi, requestTexts, runClaude, startMockMessagesApi, textReply, toolResult, toolUseReply } from "./harness.js";

// The session start in a real Claude Code session with the real 2026-04 bank (265 entries) on a
// clean main: whichever routes are installed — `setup claude`, the plugin, or both at once — the
// model gets the block once, whole and under 9,500 characters, with an index of the entries not
// shown in full; and the model can fetch one of those through the MCP server's get_memory.

const HEADER = "## Engineering Memory (from knowledge bank)";

async function bankWorkspace(): Promise<{ home: string; project: string; api: MockMessagesApi }> {
  const base = makeTempDir("iflow-memory-claude-routes-");
  const home = join(base, "home");
  mkdirSync(home);
  const project = copyCorpus("iflow-kb-2026-04", base);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "--quiet", "--initial-branch", "main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Add the retrospectives' knowledge bank");
  const api = await startMockMessagesApi();
  onTestFinished(() => api.close());
  return { home, project, api };
}

/** The block the hook gives this project when run by itself, as both routes register it (in another HOME). */
async function memoryBlock(project: string): Promise<string> {
  const stdin = JSON.stringify({ session_id: "alone", cwd: project, hook_event_name: "SessionStart", source: "startup" });
  const result = await runNode(HOOK_BIN, ["--mcp"], { stdin, env: { HOME: makeTempDir(), IFLOW_MEMORY_HOOK_CACHE: "0" } });
  return (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

async function claude(api: MockMessagesApi, home: string, cwd: string, args: string[]): Promise<void> {
  const run = await runClaude({ api, home, cwd, args });
  expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
}

const install = {
  setup: async (api: MockMessagesApi, home: string, project: string) => {
    expect((await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } })).code).toBe(0);
    void api;
    void project;
  },
  plugin: async (api: MockMessagesApi, home: string, project: string) => {
    await claude(api, home, project, ["plugin", "marketplace", "add", REPO_ROOT]);
    await claude(api, home, project, ["plugin", "install", "iflow-memory@iflow-memory"]);
  },
};

describe("the session start in a real Claude Code session, whichever routes are installed", () => {
  it.each([["setup claude and the plugin, both at once", ["setup", "plugin"] as const], ["setup claude alone", ["setup"] as const], ["the plugin alone", ["plugin"] as const]])(
    "with %s: the block reaches the model once, whole, under 9,500 characters, with an index",
    async (_name, routes) => {
      const { home, project, api } = await bankWorkspace();
      for (const route of routes) await install[route](api, home, project);
      const run = await runClaude({ api, home, cwd: project, prompt: "hello" });
      expect(run.code, run.stderr).toBe(0);
      const texts = messagesRequests(run.requests).slice(0, 1).flatMap(requestTexts);
      const occurrences = texts.reduce((count, text) => count + text.split(HEADER).length - 1, 0);
      expect(occurrences).toBe(1);
      const block = await memoryBlock(project);
      expect(block.length).toBeLessThanOrEqual(9500);
      expect(block).toContain("### More in memory (titles only)\n");
      expect(hookContextText(run.requests, "SessionStart")?.slice(0, block.length)).toBe(block);
    },
  );

  it("answers the model's get_memory on a hash from the index with that entry in full", async () => {
    const { home, project, api } = await bankWorkspace();
    await install.setup(api, home, project);
    const block = await memoryBlock(project);
    const line = block.split("\n").filter((text) => /^- `[0-9a-f]{8,16}` /.test(text))[5]!;
    const [, hash, title] = /^- `([0-9a-f]+)` (.*)$/.exec(line)!;
    const tool = "mcp__iflow-memory__get_memory";
    const call = toolUseReply(tool, { hash: hash! });
    api.replyNext(call, textReply("Read it."));
    const run = await runClaude({ api, home, cwd: project, prompt: "Read the memory you need for this task.", args: ["--allowedTools", tool], timeoutMs: 60_000 });
    expect({ code: run.code, reply: run.result?.result }, run.stderr).toEqual({ code: 0, reply: "Read it." });
    const result = toolResult(run.requests, (call.content[0] as { id: string }).id);
    expect(result).not.toBeNull();
    expect(result!.isError, result!.text).toBe(false);
    const answer = JSON.parse(result!.text) as { name: string; hash: string; text: string };
    expect(answer.name).toBe(title);
    expect(answer.hash.startsWith(hash!)).toBe(true);
    expect(answer.text.length).toBeGreaterThan(title!.length);
  });
});
