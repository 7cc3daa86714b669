import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, HOOK_BIN, makeTempDir, PROMPT_HOOK_BIN, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

/** The real 2026-04 bank in a git repository on `main`, with a temp HOME. */
function repository(options: { git?: boolean } = {}) {
  const base = makeTempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const root = copyCorpus("iflow-kb-2026-04", base);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" });
  if (options.git !== false) {
    git("init", "--quiet", "--initial-branch", "main");
    git("add", "-A");
    git("commit", "--quiet", "-m", "Knowledge bank");
  }
  return { base, home, root, git, store: join(home, ".claude/iflow/memory") };
}

function commitFile(git: (...args: string[]) => string, root: string, path: string, subject: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), `# ${subject}\n`);
  git("add", "-A");
  git("commit", "--quiet", "-m", subject);
}

const sessionStart = (root: string, home: string, env: Record<string, string> = {}, session = "s1") =>
  runNode(HOOK_BIN, [], { stdin: JSON.stringify({ session_id: session, cwd: root, hook_event_name: "SessionStart", source: "startup" }), env: { HOME: home, ...env } });
const prompt = (root: string, home: string, text: string, session = "s1") =>
  runNode(PROMPT_HOOK_BIN, [], { stdin: JSON.stringify({ session_id: session, cwd: root, hook_event_name: "UserPromptSubmit", prompt: text }), env: { HOME: home } });

/** The entry headers of a hook's additionalContext, in block order; [] for no output. */
function headers(stdout: string, event = "SessionStart"): string[] {
  if (stdout === "") return [];
  const output = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(output.hookSpecificOutput.hookEventName).toBe(event);
  return output.hookSpecificOutput.additionalContext
    .split("\n")
    .filter((line) => /^### (?:Anti-Pattern|Pattern|Heuristic)?/.test(line) && !/^### (?:Anti-Patterns to Avoid|Heuristics|Patterns to Follow|More in memory \(titles only\))$/.test(line));
}

describe("the SessionStart hook with relevance, in a real git repository", () => {
  it("brings the bank's entries on retries and embeddings to the top on a branch about embedding-call timeouts", async () => {
    const { home, root, git } = repository();
    git("checkout", "--quiet", "-b", "fix/embedding-call-timeouts");
    commitFile(git, root, "plugins/iflow/hooks/lib/semantic_memory/retry.py", "Retry embedding calls that time out");
    const result = await sessionStart(root, home);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    const injected = headers(result.stdout);
    expect(injected).toContain("### Pattern: Wrapper-Side Emission Outside @with_retry");
    expect(injected.length).toBeLessThan(20);
  });

  it("injects today's order where there is nothing to rank by: no git, no feature, no manifest", async () => {
    const { home, root } = repository({ git: false });
    const result = await sessionStart(root, home);
    const original = await runNode(CLI_BIN, ["inject", "--project-root", root, "--max-chars", "9000", "--index", "--no-tracking"], { env: { HOME: home } });
    expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toBe(original.stdout);
  });

  it("ranks by the changed files and recent commits on a detached HEAD", async () => {
    const { home, root, git } = repository();
    commitFile(git, root, "plugins/iflow/hooks/lib/semantic_memory/fts5_search.py", "Check FTS5 availability before the keyword search");
    git("checkout", "--quiet", "--detach", "HEAD");
    const result = await sessionStart(root, home);
    expect(result.code).toBe(0);
    expect(headers(result.stdout)).toContain("### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call");
  });

  it("still ranks by the branch (read from .git, no git process) when git does not answer in time, and finishes", async () => {
    const { base, home, root, git } = repository();
    git("checkout", "--quiet", "-b", "fix/embedding-call-timeouts-retry");
    const slow = join(base, "slow-bin");
    mkdirSync(slow);
    writeFileSync(join(slow, "git"), "#!/bin/sh\nsleep 5\n");
    chmodSync(join(slow, "git"), 0o755);
    const started = Date.now();
    const result = await sessionStart(root, home, { PATH: `${slow}:${process.env.PATH ?? ""}` });
    expect([result.code, Date.now() - started < 4_000]).toEqual([0, true]);
    expect(headers(result.stdout)).toContain("### Pattern: Wrapper-Side Emission Outside @with_retry");
  });

  it("injects the proven core with a branch about what the bank never speaks of, and nothing with memory_injection_ranking: strict", async () => {
    const { home, root, git } = repository();
    git("checkout", "--quiet", "-b", "chore/update-license-year");
    commitFile(git, root, "LICENSE", "Update copyright year to 2026");
    const core = headers(JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: (await runNode(CLI_BIN, ["inject", "--project-root", root, "--max-chars", "9000", "--index", "--no-tracking"], { env: { HOME: home } })).stdout } }));
    const result = await sessionStart(root, home);
    expect(headers(result.stdout)).toEqual(core);
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), "---\nmemory_injection_ranking: strict\n---\n");
    // Ignored, as a local config file usually is: an untracked one would be a signal of its own.
    writeFileSync(join(root, ".git/info/exclude"), ".claude/\n");
    const strict = await sessionStart(root, home, {}, "s2");
    expect(headers(strict.stdout).length).toBeLessThanOrEqual(2);
  });

  it("keeps today's order with memory_injection_ranking: original", async () => {
    const { home, root, git } = repository();
    git("checkout", "--quiet", "-b", "fix/embedding-call-timeouts");
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), "---\nmemory_injection_ranking: original\n---\n");
    const result = await sessionStart(root, home);
    const original = await runNode(CLI_BIN, ["inject", "--project-root", root, "--max-chars", "9000", "--index", "--no-tracking"], { env: { HOME: home } });
    expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toBe(original.stdout);
  });
});

describe("the UserPromptSubmit hook", () => {
  it("adds the entries relevant to a prompt once per session, nothing for a prompt the bank has nothing on, and again in a new session", async () => {
    const { home, root } = repository({ git: false });
    const question = "the keyword fallback search fails with sqlite errors when the FTS5 extension is missing";
    const first = await prompt(root, home, question);
    expect([first.code, first.stderr]).toEqual([0, ""]);
    const added = headers(first.stdout, "UserPromptSubmit");
    expect(added).toContain("### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call");
    expect(added.length).toBeLessThanOrEqual(5);
    expect(JSON.parse(first.stdout).hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(3000);
    // The same prompt again: the session has it already.
    expect(headers((await prompt(root, home, question)).stdout, "UserPromptSubmit")).not.toContain("### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call");
    expect((await prompt(root, home, "ok, thanks — go ahead")).stdout).toBe("");
    // Stop words alone: nothing to match, so nothing (not today's order, as for a session with nothing to rank by).
    expect((await prompt(root, home, "try that again")).stdout).toBe("");
    expect((await prompt(root, home, "yes, do it")).stdout).toBe("");
    // Small steps in the bank's own words: one familiar word does not bring entries at every turn.
    expect((await prompt(root, home, "run the tests")).stdout).toBe("");
    expect((await prompt(root, home, "looks good, commit it")).stdout).toBe("");
    // What the bank never speaks of adds at most two weak matches (the bound eval:relevance holds the ranking to).
    expect(headers((await prompt(root, home, "make the pricing page's css grid stack on mobile")).stdout, "UserPromptSubmit").length).toBeLessThanOrEqual(2);
    expect(headers((await prompt(root, home, question, "s2")).stdout, "UserPromptSubmit")).toContain("### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call");
  });

  it("adds what a prompt clearly asks about on a bank of a dozen entries too: the floor scales with the bank's size", async () => {
    const base = makeTempDir();
    const home = join(base, "home");
    const root = join(base, "demo-project");
    cpSync(join(REPO_ROOT, "examples/demo-project"), root, { recursive: true });
    cpSync(join(REPO_ROOT, "examples/demo-global-store"), join(home, ".claude/iflow/memory"), { recursive: true });
    const asked = await prompt(root, home, "retry the checkout payment request when it times out");
    expect([asked.code, asked.stderr]).toEqual([0, ""]);
    expect(headers(asked.stdout, "UserPromptSubmit")).toEqual(["### Anti-Pattern: Retrying Non-Idempotent Requests"]);
    expect((await prompt(root, home, "looks good, commit it")).stdout).toBe("");
    expect((await prompt(root, home, "try that again")).stdout).toBe("");
  });

  it("adds what a prompt asks about from a global store of four entries alone, in words the store mostly never uses", async () => {
    const base = makeTempDir();
    const home = join(base, "home");
    const root = join(base, "empty-project");
    mkdirSync(join(root, ".git"), { recursive: true });
    cpSync(join(REPO_ROOT, "examples/demo-global-store"), join(home, ".claude/iflow/memory"), { recursive: true });
    const asked = await prompt(root, home, "the state file sometimes ends up half written after a crash, how do we write it safely");
    expect([asked.code, asked.stderr]).toEqual([0, ""]);
    expect(headers(asked.stdout, "UserPromptSubmit")).toEqual(["### Pattern: Atomic Writes for State Files"]);
    expect((await prompt(root, home, "make the pricing page's css grid stack on mobile")).stdout).toBe("");
  });

  it("does not repeat what the session start injected", async () => {
    const { home, root, git, store } = repository();
    git("checkout", "--quiet", "-b", "fix/embedding-call-timeouts");
    commitFile(git, root, "plugins/iflow/hooks/lib/semantic_memory/retry.py", "Retry embedding calls that time out");
    const start = headers((await sessionStart(root, home)).stdout);
    expect(start).toContain("### Pattern: Wrapper-Side Emission Outside @with_retry");
    const ledger = readFileSync(join(store, ".cache/sessions/s1.txt"), "utf8").trim().split("\n");
    expect(ledger.length).toBe(start.length);
    const added = headers((await prompt(root, home, "why are the retry wrappers around the embedding calls emitting events twice?")).stdout, "UserPromptSubmit");
    expect(added.filter((header) => start.includes(header))).toEqual([]);
  });

  it("is fail-open: garbage stdin, another event, or memory_prompt_recall: false → exit 0 and nothing", async () => {
    const { home, root } = repository({ git: false });
    const garbage = await runNode(PROMPT_HOOK_BIN, [], { stdin: "{not json", env: { HOME: home }, cwd: root });
    expect([garbage.code, garbage.stdout]).toEqual([0, ""]);
    const other = await runNode(PROMPT_HOOK_BIN, [], { stdin: JSON.stringify({ hook_event_name: "Stop", cwd: root, prompt: "FTS5" }), env: { HOME: home } });
    expect([other.code, other.stdout, other.stderr]).toEqual([0, "", "iflow-memory: called for Stop, not UserPromptSubmit; nothing injected\n"]);
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), "---\nmemory_prompt_recall: false\n---\n");
    const off = await prompt(root, home, "the keyword fallback search fails when the FTS5 extension is missing");
    expect([off.code, off.stdout]).toEqual([0, ""]);
  });

  it("gives the same through `iflow-memory hook user-prompt-submit`", async () => {
    const { home, root } = repository({ git: false });
    const stdin = JSON.stringify({ session_id: "cli", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "check FTS5 availability in sqlite" });
    const viaCli = await runNode(CLI_BIN, ["hook", "user-prompt-submit"], { stdin, env: { HOME: home } });
    rmSync(join(home, ".claude/iflow/memory/.cache/sessions"), { recursive: true, force: true });
    const direct = await runNode(PROMPT_HOOK_BIN, [], { stdin, env: { HOME: home } });
    expect([viaCli.code, viaCli.stdout]).toEqual([0, direct.stdout]);
    expect(viaCli.stdout).not.toBe("");
  });
});

describe("iflow-memory search and inject --query", () => {
  it("prints the ranked entries as JSON with the fields other tools rely on, and nothing for an unrelated query", async () => {
    const { home, root } = repository({ git: false });
    const found = await runNode(CLI_BIN, ["search", "FTS5", "availability", "--project-root", root, "--json", "--explain"], { env: { HOME: home } });
    const items = JSON.parse(found.stdout) as Array<Record<string, unknown>>;
    expect(found.code).toBe(0);
    expect(items[0]).toMatchObject({ name: "Assuming FTS5 Availability via SQL Function Call", headerLine: "### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call", category: "anti-patterns", scope: "local", contentHash: expect.stringMatching(/^[0-9a-f]{16}$/), score: expect.any(Number), matchedTerms: expect.arrayContaining(["fts5"]) });
    const none = await runNode(CLI_BIN, ["search", "kubernetes", "helm", "ingress", "--project-root", root, "--json"], { env: { HOME: home } });
    expect([none.code, none.stdout]).toEqual([0, "[]\n"]);
    // A reader judges a ranked list: one word the bank holds is enough to be listed, stop words never are.
    const one = JSON.parse((await runNode(CLI_BIN, ["search", "kubernetes", "ingress", "annotations", "--project-root", root, "--json", "--limit", "-1", "--explain"], { env: { HOME: home } })).stdout) as Array<{ matchedTerms: string[] }>;
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((item) => item.matchedTerms.length > 0 && item.matchedTerms.every((term) => term.startsWith("annot")))).toBe(true);
    const stopWords = await runNode(CLI_BIN, ["search", "the", "and", "of", "--project-root", root, "--json"], { env: { HOME: home } });
    expect(stopWords.stdout).toBe("[]\n");
  });

  it("says what is wrong in one line for an empty query (exit 2)", async () => {
    const result = await runNode(CLI_BIN, ["search", "  "], { env: { HOME: makeTempDir() } });
    expect([result.code, result.stderr]).toEqual([2, "iflow-memory: search needs a query, e.g. iflow-memory search embedding timeouts\n"]);
  });

  it("prints the block the hooks would give for a context, floor included", async () => {
    const { home, root } = repository({ git: false });
    const block = await runNode(CLI_BIN, ["inject", "--project-root", root, "--query", "check FTS5 availability in sqlite", "--no-tracking"], { env: { HOME: home } });
    expect(block.stdout).toContain("### Anti-Pattern: Assuming FTS5 Availability via SQL Function Call\n");
    expect(block.stdout.length).toBeLessThanOrEqual(9000);
    const nothing = await runNode(CLI_BIN, ["inject", "--project-root", root, "--query", "kubernetes ingress annotations", "--json", "--no-tracking"], { env: { HOME: home } });
    expect(JSON.parse(nothing.stdout)).toMatchObject({ entries: [], chars: 0 });
    expect(existsSync(join(home, ".claude/iflow/memory/.last-injection.json"))).toBe(false);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe("iflow-memory stats", () => {
  it("shows the signals a session start finds and what they select", async () => {
    const { home, root, git } = repository();
    git("checkout", "--quiet", "-b", "fix/embedding-call-timeouts");
    commitFile(git, root, "plugins/iflow/hooks/lib/semantic_memory/retry.py", "Retry embedding calls that time out");
    const json = await runNode(CLI_BIN, ["stats", "--project-root", root, "--json"], { env: { HOME: home } });
    const stats = JSON.parse(json.stdout) as { signals: { branch: string; changedFiles: string[]; commitSubjects: string[] }; injection: { ranking: string; names: string[] } };
    expect(stats.signals).toMatchObject({ branch: "fix/embedding-call-timeouts", changedFiles: ["plugins/iflow/hooks/lib/semantic_memory/retry.py"], commitSubjects: ["Retry embedding calls that time out"] });
    expect(stats.injection.ranking).toBe("relevance");
    expect(stats.injection.names).toContain("Wrapper-Side Emission Outside @with_retry");
    const text = await runNode(CLI_BIN, ["stats", "--project-root", root], { env: { HOME: home } });
    expect(text.stdout).toContain("signals: branch fix/embedding-call-timeouts, 1 changed file, 1 commit subject, no active feature, no stack markers\n");
    expect(text.stdout).toMatch(/next session start \(by relevance to the signals\): \d+ entr(y|ies), \d+ characters/);
  });
});
