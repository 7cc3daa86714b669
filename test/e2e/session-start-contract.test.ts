import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, HOOK_BIN, makeTempDir, PROMPT_HOOK_BIN, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it, onTestFinished } from "vitest";

// The session start a user can count on, end to end with the built hook: never empty, once per
// session whichever routes run it, never longer than Claude Code passes whole, and an index whose
// hashes the MCP server and the CLI resolve.

const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
const MCP_BUNDLE = join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs");

/** The real 2026-04 bank in a git repository on a clean `main`, with a temp HOME. */
function repository() {
  const base = makeTempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const root = copyCorpus("iflow-kb-2026-04", base);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" });
  git("init", "--quiet", "--initial-branch", "main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Add the retrospectives' knowledge bank");
  return { home, root, store: join(home, ".claude/iflow/memory") };
}

const input = (root: string, session: string) => JSON.stringify({ session_id: session, cwd: root, hook_event_name: "SessionStart", source: "startup" });
const startSession = (root: string, home: string, options: { session?: string; args?: string[] } = {}) =>
  runNode(HOOK_BIN, options.args ?? ["--mcp"], { stdin: input(root, options.session ?? "s1"), env: { HOME: home } });

function context(stdout: string): string {
  const output = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
  return output.hookSpecificOutput.additionalContext;
}

/** The entries a block shows in full (their header lines) and the short hashes its index names. */
function contents(block: string): { full: string[]; indexed: string[] } {
  const lines = block.split("\n");
  return {
    full: lines.filter((line) => /^### (?:Anti-Pattern: |Pattern: |Heuristic: )?/.test(line) && !/^### (?:Anti-Patterns to Avoid|Heuristics|Patterns to Follow|More in memory \(titles only\))$/.test(line)),
    indexed: lines.flatMap((line) => /^- `([0-9a-f]{8,16})` /.exec(line)?.[1] ?? []),
  };
}

describe("the session start a user can count on", () => {
  it("injects the proven core and an index where the session's signals match nothing in the bank", async () => {
    const { home, root } = repository();
    // An untracked config file is a changed file, and so a signal — one that matches nothing.
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 20\n---\n");
    const result = await startSession(root, home);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    const block = context(result.stdout);
    const { full, indexed } = contents(block);
    expect(full.length).toBeGreaterThanOrEqual(3);
    expect(indexed.length).toBeGreaterThanOrEqual(40);
    expect(block.length).toBeLessThanOrEqual(9000);
    expect(block).toContain("the iflow-memory MCP tool `get_memory` with its hash");
  });

  it("names the command line in the index where the hook was registered without the MCP server", async () => {
    const { home, root } = repository();
    const block = context((await startSession(root, home, { args: [] })).stdout);
    expect(block).toContain("run `iflow-memory show HASH`");
    expect(block).not.toContain("get_memory");
  });

  it("injects once when two hook processes start together for one session, and again for another session", async () => {
    const { home, root, store } = repository();
    const runs = await Promise.all([startSession(root, home), startSession(root, home, { args: [] }), startSession(root, home)]);
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    const printed = runs.filter((run) => run.stdout !== "");
    expect(printed).toHaveLength(1);
    const silent = runs.filter((run) => run.stdout === "");
    for (const run of silent) expect(run.stderr).toMatch(/^iflow-memory: another iflow-memory hook injected for this session's startup already; nothing printed \(are both the plugin and `iflow-memory setup claude` installed\?/);
    expect((await startSession(root, home, { session: "s2" })).stdout).not.toBe("");
    expect(readdirSync(join(store, ".cache/sessions")).filter((name) => name.endsWith(".claim")).sort()).toEqual(["s1.startup.claim", "s2.startup.claim"]);
  });

  it("caps a configured size of 20,000 at 9,500 characters and says so", async () => {
    const { home, root } = repository();
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), "---\nmemory_injection_max_chars: 20000\nmemory_injection_limit: 60\n---\n");
    const result = await startSession(root, home);
    expect(result.stderr).toContain("memory_injection_max_chars: 20000 is more than Claude Code passes to the model whole (about 10,000 characters); capped at 9500");
    const block = context(result.stdout);
    expect(block.length).toBeLessThanOrEqual(9500);
    expect(block.length).toBeGreaterThan(9000);
  });

  it("names in its index hashes that `show` and the MCP server's get_memory resolve to the entry of that title", async () => {
    const { home, root } = repository();
    const block = context((await startSession(root, home)).stdout);
    const lines = block.split("\n").filter((line) => /^- `[0-9a-f]{8,16}` /.test(line));
    expect(lines.length).toBeGreaterThan(10);
    const picked = [lines[0]!, lines[Math.floor(lines.length / 2)]!, lines.at(-1)!].map((line) => {
      const [, hash, title] = /^- `([0-9a-f]+)` (.*)$/.exec(line)!;
      return { hash: hash!, title: title! };
    });

    for (const { hash, title } of picked) {
      const shown = await runNode(CLI_BIN, ["show", hash, "--project-root", root], { env: { HOME: home } });
      expect([shown.code, shown.stderr]).toEqual([0, ""]);
      expect(shown.stdout).toContain(title);
    }

    const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BUNDLE], cwd: root, env: { PATH: process.env.PATH ?? "", HOME: home }, stderr: "pipe" });
    const client = new Client({ name: "iflow-memory-test", version: "1.0.0" });
    await client.connect(transport);
    onTestFinished(() => client.close());
    for (const { hash, title } of picked) {
      const answer = (await client.callTool({ name: "get_memory", arguments: { hash } })) as { isError?: boolean; structuredContent?: { name: string; hash: string } };
      expect(answer.isError ?? false).toBe(false);
      expect(answer.structuredContent!.name).toBe(title);
      expect(answer.structuredContent!.hash.startsWith(hash)).toBe(true);
    }
  });

  it("creates nothing, no global store and no cache, where there is no memory at all", async () => {
    const base = makeTempDir();
    const home = join(base, "home");
    const root = join(base, "project");
    mkdirSync(home);
    mkdirSync(join(root, ".git"), { recursive: true });
    const start = await startSession(root, home);
    const prompt = await runNode(PROMPT_HOOK_BIN, ["--mcp"], { stdin: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "retry the embedding call" }), env: { HOME: home } });
    expect([start.code, start.stdout, start.stderr, prompt.code, prompt.stdout, prompt.stderr]).toEqual([0, "", "", 0, "", ""]);
    expect(readdirSync(home)).toEqual([]);
    expect(readdirSync(root)).toEqual([".git"]);
  });

  it("adds a prompt's entries once when two prompt hooks run for it together, and names a few more by title", async () => {
    const { home, root } = repository();
    const input = JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "the keyword fallback search fails with sqlite errors when the FTS5 extension is missing" });
    const runs = await Promise.all([runNode(PROMPT_HOOK_BIN, ["--mcp"], { stdin: input, env: { HOME: home } }), runNode(PROMPT_HOOK_BIN, [], { stdin: input, env: { HOME: home } })]);
    const printed = runs.filter((run) => run.stdout !== "");
    expect(printed).toHaveLength(1);
    const block = (JSON.parse(printed[0]!.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(block).toContain("### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call\n");
    expect(block.length).toBeLessThanOrEqual(3000);
    expect(contents(block).indexed.length).toBeLessThanOrEqual(3);
  });

  it("keeps the prompt hook strict: a prompt nothing applies to adds nothing, index included", async () => {
    const { home, root } = repository();
    const result = await runNode(PROMPT_HOOK_BIN, ["--mcp"], {
      stdin: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "make the settings page grid two columns on wide screens" }),
      env: { HOME: home },
    });
    expect([result.code, result.stdout]).toEqual([0, ""]);
  });
});
