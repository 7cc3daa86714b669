import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, HOOK_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { type ClaudeRun, DEFAULT_REPLY_TEXT, demoWorkspace as workspace, hookContextText, type MockMessagesApi, runClaude } from "./harness.js";

/** The memory block the hook gives this project's session start when run by itself (in another HOME). */
async function memoryBlock(project: string): Promise<string> {
  const stdin = JSON.stringify({ session_id: "s1", cwd: project, hook_event_name: "SessionStart", source: "startup" });
  // Both routes register the hook beside the MCP server (--mcp: the index names its tools).
  const result = await runNode(HOOK_BIN, ["--mcp"], { stdin, env: { HOME: makeTempDir(), IFLOW_MEMORY_HOOK_CACHE: "0" } });
  return (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

/** Runs a `claude` subcommand that must succeed (no prompt, no request to the API). */
async function claude(api: MockMessagesApi, home: string, cwd: string, args: string[]): Promise<void> {
  const run = await runClaude({ api, home, cwd, args });
  expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
  expect(run.requests).toEqual([]);
}

async function expectMemoryReachedTheModel(run: ClaudeRun, project: string): Promise<void> {
  expect({ code: run.code, isError: run.result?.is_error, reply: run.result?.result }).toEqual({ code: 0, isError: false, reply: DEFAULT_REPLY_TEXT });
  const block = await memoryBlock(project);
  expect(block.startsWith("## Engineering Memory (from knowledge bank)\n\n### Anti-Patterns to Avoid\n### Anti-Pattern: Mocking the Database in Integration Tests\n")).toBe(true);
  expect(hookContextText(run.requests, "SessionStart")?.slice(0, block.length)).toBe(block);
}

describe("the SessionStart hook, in a real Claude Code session", () => {
  it("gives the model the project's memory once `iflow-memory setup claude` has registered it", async () => {
    const { home, project, api } = await workspace();
    const setup = await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } });
    expect([setup.code, setup.stdout.startsWith(`Added the SessionStart hook to ${home}/.claude/settings.json:`)]).toEqual([0, true]);
    await expectMemoryReachedTheModel(await runClaude({ api, home, cwd: project, prompt: "hello" }), project);
  });

  it("gives the model the project's memory once the plugin is installed from this repository's marketplace", async () => {
    const { home, project, api } = await workspace();
    await claude(api, home, project, ["plugin", "marketplace", "add", REPO_ROOT]);
    await claude(api, home, project, ["plugin", "install", "iflow-memory@iflow-memory"]);
    await expectMemoryReachedTheModel(await runClaude({ api, home, cwd: project, prompt: "hello" }), project);
  });

  it("gives the model no memory when neither is installed", async () => {
    const { home, project, api } = await workspace();
    const run = await runClaude({ api, home, cwd: project, prompt: "hello" });
    expect([run.code, run.result?.result, hookContextText(run.requests, "SessionStart")]).toEqual([0, DEFAULT_REPLY_TEXT, null]);
  });
});

describe("the UserPromptSubmit hook, in a real Claude Code session", () => {
  const PROMPT = "the checkout client retries a POST after a timeout and charged a card twice";

  // The demo bank is small enough for a session start to give all of it; at a limit of one entry
  // it gives the branch's alone, and the prompt has something of its own to add.
  async function oneEntryWorkspace(): Promise<{ home: string; project: string; api: MockMessagesApi }> {
    const workspace_ = await workspace();
    mkdirSync(join(workspace_.project, ".claude"), { recursive: true });
    writeFileSync(join(workspace_.project, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 1\n---\n");
    // Kept out of git's changes, as a local config file usually is: a changed one would be a signal of its own.
    execFileSync("git", ["update-index", "--skip-worktree", ".claude/iflow-dev.local.md"], { cwd: workspace_.project });
    return workspace_;
  }

  async function expectPromptMemoryReachedTheModel(run: ClaudeRun): Promise<void> {
    expect({ code: run.code, reply: run.result?.result }).toEqual({ code: 0, reply: DEFAULT_REPLY_TEXT });
    const text = hookContextText(run.requests, "UserPromptSubmit");
    expect(text?.startsWith("## Engineering Memory (from knowledge bank)\n\n### Anti-Patterns to Avoid\n### Anti-Pattern: Retrying Non-Idempotent Requests\n")).toBe(true);
    // The session start gave the branch's entry; the prompt adds what the prompt is about, not that again.
    expect(hookContextText(run.requests, "SessionStart")).toContain("### Anti-Pattern: Mocking the Database in Integration Tests\n");
    expect(text).not.toContain("Mocking the Database in Integration Tests");
  }

  it("gives the model the entries relevant to the prompt once `iflow-memory setup claude` has registered it", async () => {
    const { home, project, api } = await oneEntryWorkspace();
    expect((await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } })).code).toBe(0);
    await expectPromptMemoryReachedTheModel(await runClaude({ api, home, cwd: project, prompt: PROMPT }));
  });

  it("gives the model the entries relevant to the prompt once the plugin is installed", async () => {
    const { home, project, api } = await oneEntryWorkspace();
    await claude(api, home, project, ["plugin", "marketplace", "add", REPO_ROOT]);
    await claude(api, home, project, ["plugin", "install", "iflow-memory@iflow-memory"]);
    await expectPromptMemoryReachedTheModel(await runClaude({ api, home, cwd: project, prompt: PROMPT }));
  });

  it("adds nothing to a prompt the bank has nothing on", async () => {
    const { home, project, api } = await workspace();
    expect((await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } })).code).toBe(0);
    const run = await runClaude({ api, home, cwd: project, prompt: "hello" });
    expect([run.code, hookContextText(run.requests, "UserPromptSubmit")]).toEqual([0, null]);
  });
});
