import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, closeSync, constants, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { indexTerms } from "@iflow-memory/ranker";
import { codeCacheFile, type CodeCacheNode, injectionCachePath, MEMORY_CACHE_SALT, prepareSessionInjection, rankingCachePath, readCachedRanking } from "@iflow-memory/store";
import { CLI_BIN, copyCorpus, CORPORA_DIR, dedent, HOOK_BIN, IN_CI, isRunning, makeTempDir, PROMPT_HOOK_BIN, REPO_ROOT, runNode, testNodes } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

const ENTRY = "### Pattern: Small Steps\nCommit often; a small diff is a reviewed diff.\n- Observation count: 2\n";

/** A project with a knowledge bank and a temporary HOME whose global store holds the example. */
function workspace(options: { bank?: string; globalExample?: boolean } = {}) {
  const base = makeTempDir();
  const home = join(base, "home");
  mkdirSync(home);
  let projectRoot: string;
  if (options.bank === undefined) {
    projectRoot = join(base, "webshop");
    mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
    writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), ENTRY);
  } else {
    projectRoot = copyCorpus(options.bank, base);
  }
  mkdirSync(join(projectRoot, ".git"), { recursive: true });
  const store = join(home, ".claude/iflow/memory");
  if (options.globalExample === true) cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
  return { base, home, projectRoot, store };
}

/** Today's order, without prompt recall: the injection is all the cache holds, and no git runs. */
function useOriginalRanking(projectRoot: string): void {
  mkdirSync(join(projectRoot, ".claude"), { recursive: true });
  writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_ranking: original\nmemory_prompt_recall: false\n---\n");
}

// A session of its own for each run: a second start of one session and source within a minute is
// taken for a second route's hook, and prints nothing (see session-start-contract.test.ts).
let sessions = 0;
function stdinFor(projectRoot: string, source = "startup"): string {
  return JSON.stringify({ session_id: `s${++sessions}`, transcript_path: "/tmp/t.jsonl", cwd: projectRoot, hook_event_name: "SessionStart", source });
}

async function runHook(
  stdin: string | null | { descriptor: number },
  home: string,
  options: { node: string; cwd?: string; env?: Record<string, string>; viaCli?: boolean; nodeOptions?: string[] },
) {
  const [script, args] = options.viaCli === true ? [CLI_BIN, ["hook", "session-start"]] : [HOOK_BIN, []];
  const result = await runNode(script, args, {
    node: options.node,
    stdin,
    env: { HOME: home, ...options.env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.nodeOptions === undefined ? {} : { nodeOptions: options.nodeOptions }),
  });
  const context =
    result.stdout === ""
      ? null
      : (JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
  return { ...result, output: context };
}

// The node (version, architecture) that `executable` is: its code caches are named for it.
function nodeOf(executable: string): CodeCacheNode {
  const [version, arch] = execFileSync(executable, ["-p", "process.version + ' ' + process.arch"], { encoding: "utf8" }).trim().split(" ");
  return { version: version!, arch: arch! };
}

// Every test below runs on each node the hook supports: the running one (Node 20 in CI), and
// Node 22 and 24 as installed by `pnpm install` (test-utils' optionalDependencies).
describe.each(testNodes())("on $label", ({ major, executable, missing }) => {
  if (executable === null) {
    // In CI a node that is not there is a failure; elsewhere npm may have none for this machine.
    (IN_CI ? it : it.skip)(missing!, () => {
      throw new Error(missing);
    });
    return;
  }
  type Options = Omit<Parameters<typeof runHook>[2], "node">;
  const hook = (stdin: string | null | { descriptor: number }, home: string, options: Options = {}) => runHook(stdin, home, { ...options, node: executable });

  it(`runs node ${major}`, () => {
    expect(execFileSync(executable, ["--version"], { encoding: "utf8" })).toMatch(new RegExp(`^v${major}\\.`));
  });

  describe("the SessionStart hook, run as Claude Code runs it", () => {
    it("prints the project's memory as additionalContext of a SessionStart hookSpecificOutput", async () => {
      const { home, projectRoot } = workspace();
      const result = await hook(stdinFor(projectRoot), home);
      expect(result.code).toBe(0);
      expect(result.output).toEqual({
        hookEventName: "SessionStart",
        additionalContext:
          "## Engineering Memory (from knowledge bank)\n\n### Patterns to Follow\n### Pattern: Small Steps\nCommit often; a small diff is a reviewed diff.\n- Observation count: 2\n\n---\n",
      });
    });

    it("gives the same output through `iflow-memory hook session-start`", async () => {
      const { home, projectRoot } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      const direct = await hook(stdinFor(projectRoot), home, { env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
      const viaCli = await hook(stdinFor(projectRoot), home, { viaCli: true, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
      expect(viaCli.stdout).toBe(direct.stdout);
      expect(direct.output?.additionalContext).toContain("## Engineering Memory (from knowledge bank)");
    });

    it("keeps the real 265-entry bank plus the global store within the 9,000-character budget", async () => {
      const { home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      const result = await hook(stdinFor(projectRoot), home);
      expect(result.output!.additionalContext.length).toBeLessThanOrEqual(9000);
      expect(result.output!.additionalContext.endsWith("\n---\n")).toBe(true);
      const { readFileSync } = await import("node:fs");
      const tracking = JSON.parse(readFileSync(join(store, ".last-injection.json"), "utf8")) as Record<string, unknown>;
      expect([tracking.event, tracking.chars]).toEqual(["startup", result.output!.additionalContext.length]);
    });

    it("finds the project root from a subdirectory given as cwd", async () => {
      const { home, projectRoot } = workspace();
      mkdirSync(join(projectRoot, "src/cart"), { recursive: true });
      const result = await hook(stdinFor(join(projectRoot, "src/cart")), home);
      expect(result.output?.additionalContext).toContain("Small Steps");
    });

    it("uses CLAUDE_PROJECT_DIR, then the process's directory, when stdin has no cwd", async () => {
      const { home, projectRoot } = workspace();
      const fromEnv = await hook('{"hook_event_name":"SessionStart","source":"startup"}', home, { env: { CLAUDE_PROJECT_DIR: projectRoot } });
      const fromCwd = await hook('{"hook_event_name":"SessionStart","source":"startup"}', home, { cwd: projectRoot });
      expect([fromEnv.output?.additionalContext, fromCwd.output?.additionalContext].every((text) => text?.includes("Small Steps"))).toBe(true);
    });

    it("falls back to the defaults on garbage stdin, says so in one line, and exits 0", async () => {
      const { home, projectRoot } = workspace();
      const result = await hook("this is not json {", home, { cwd: projectRoot });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("iflow-memory: stdin is not valid JSON; using defaults (source startup, the current directory)\n");
      expect(result.output?.additionalContext).toContain("Small Steps");
    });

    it("treats empty stdin as a startup in the current directory", async () => {
      const { home, projectRoot } = workspace();
      const result = await hook("", home, { cwd: projectRoot });
      expect([result.code, result.stderr, result.output?.additionalContext.includes("Small Steps")]).toEqual([0, "", true]);
    });

    it("does not wait for a stdin that never closes: it reads what arrived and finishes", async () => {
      const { home, projectRoot } = workspace();
      const result = await hook(null, home, { cwd: projectRoot });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("stdin did not close within");
      expect(result.output?.additionalContext).toContain("Small Steps");
    });

    it("prints nothing and exits 0 without a knowledge bank", async () => {
      const { home, base } = workspace();
      const empty = join(base, "empty");
      mkdirSync(join(empty, ".git"), { recursive: true });
      expect(await hook(stdinFor(empty), home)).toMatchObject({ code: 0, stdout: "", stderr: "" });
    });

    it("injects nothing on compact by default, and injects when the config lists compact", async () => {
      const { home, projectRoot } = workspace();
      expect((await hook(stdinFor(projectRoot, "compact"), home)).stdout).toBe("");
      mkdirSync(join(projectRoot, ".claude"));
      writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_events: [startup, compact]\n---\n");
      expect((await hook(stdinFor(projectRoot, "compact"), home)).output?.additionalContext).toContain("Small Steps");
    });

    it("says nothing for a hook event that is not SessionStart", async () => {
      const { home, projectRoot } = workspace();
      const result = await hook(JSON.stringify({ hook_event_name: "PreToolUse", cwd: projectRoot }), home);
      expect([result.code, result.stdout]).toEqual([0, ""]);
    });

    it("uses the defaults when the config's YAML is broken, with a one-line warning naming the file", async () => {
      const { home, projectRoot } = workspace();
      mkdirSync(join(projectRoot, ".claude"));
      writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: [1, 2\n---\n");
      const result = await hook(stdinFor(projectRoot), home);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/^iflow-memory: warning: .*\.claude\/iflow-dev\.local\.md:\d+: invalid YAML \(.*\); using the defaults\n$/);
      expect(result.output?.additionalContext).toContain("Small Steps");
    });

    it("honours memory_injection_enabled: false, however it is spelled", async () => {
      const { home, projectRoot } = workspace();
      mkdirSync(join(projectRoot, ".claude"));
      writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_enabled: False  # off for now\n---\n");
      expect(await hook(stdinFor(projectRoot), home)).toMatchObject({ code: 0, stdout: "", stderr: "" });
    });

    it("skips an unreadable entry file with a warning and injects the rest", async () => {
      const { home, projectRoot } = workspace();
      // A directory where a file should be is unreadable for root too (chmod 000 is not).
      mkdirSync(join(projectRoot, "docs/knowledge-bank/anti-patterns.md"));
      writeFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), "### Heuristic: Secret\nNobody may read this.\n");
      if (process.getuid?.() !== 0) chmodSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), 0o000);
      const result = await hook(stdinFor(projectRoot), home);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("anti-patterns.md: is a directory, not a file; skipped");
      expect(result.output?.additionalContext).toContain("Small Steps");
    });

    it("skips a file over 64 MiB and still answers", async () => {
      const { home, projectRoot } = workspace();
      writeFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), `### Heuristic: Huge\n${"x".repeat(65 * 1024 * 1024)}\n`);
      const result = await hook(stdinFor(projectRoot), home);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/heuristics\.md: is \d+ bytes, over the 67108864-byte limit; skipped/);
      expect(result.output?.additionalContext).toContain("Small Steps");
    });

    it("answers within the budget on a 50,000-entry bank (over 4 MiB: read in a worker thread)", async () => {
      const { home, projectRoot } = workspace();
      const entries = Array.from({ length: 50_000 }, (_, index) => `### Heuristic: Lesson ${index}\nWhen the build breaks for reason ${index}, read the log first.\n- Observation count: ${(index % 7) + 1}\n`);
      writeFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), entries.join("\n"));
      const result = await hook(stdinFor(projectRoot), home, { env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "20000" } });
      expect(result.code).toBe(0);
      expect(result.output!.additionalContext.length).toBeLessThanOrEqual(9000);
      // Highest count (7) first; among equals the later entry is the newer one.
      expect(result.output!.additionalContext).toContain("### Heuristics\n### Heuristic: Lesson 49993\n");
    });

    it("reads a large global store's kept entries (read lazily) in its worker thread as it reads the files: a second project beside it", async () => {
      const { base, home, projectRoot, store } = workspace();
      const other = join(base, "api");
      mkdirSync(join(other, "docs/knowledge-bank"), { recursive: true });
      mkdirSync(join(other, ".git"));
      writeFileSync(join(other, "docs/knowledge-bank/patterns.md"), "### Pattern: Version the API\nNever break a published route.\n");
      mkdirSync(store, { recursive: true });
      // Over 4 MiB: read in a worker thread.
      const entries = Array.from({ length: 50_000 }, (_, index) => `### Heuristic: Lesson ${index}\nWhen the build breaks for reason ${index}, read the log first.\n- Observation count: ${(index % 7) + 1}\n`);
      writeFileSync(join(store, "heuristics.md"), entries.join("\n"));
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const env = { IFLOW_MEMORY_HOOK_DEADLINE_MS: "30000" };
      // The first project's start keeps the store's entries; the second's reads them from that cache.
      expect((await hook(stdinFor(projectRoot), home, { env })).code).toBe(0);
      const kept = readdirSync(join(store, ".cache/files")).map((name) => readFileSync(join(store, ".cache/files", name), "utf8").split("\n", 2));
      expect(kept.some(([header, meta]) => header!.includes(`"path":${JSON.stringify(join(store, "heuristics.md"))}`) && meta!.includes('"columns":'))).toBe(true);
      const second = await hook(stdinFor(other), home, { env });
      const uncached = await hook(stdinFor(other), home, { env: { ...env, IFLOW_MEMORY_HOOK_CACHE: "0" } });
      expect([second.code, second.stderr]).toEqual([0, ""]);
      expect(second.output!.additionalContext).toContain("Version the API");
      expect(second.output!.additionalContext).toContain("### Heuristic: Lesson 49993\n");
      expect(second.output).toEqual(uncached.output);
      // What the worker worked out is cached for the session's prompts and later starts: each
      // entry on a line of its own, whole (the line of the store's last entry, as the file has it).
      const file = readFileSync(rankingCachePath(injectionCachePath(store, other)));
      const { columns, postingStarts, growth } = JSON.parse(file.toString("utf8", 0, file.indexOf(10))) as { columns: number; postingStarts: number[]; growth?: { bytes: number } };
      // The header, then the entries' lines (the project's one, the store's 50,000), up to the
      // postings (8 bytes each, and a newline), what grows the injection after an edit (kept from
      // the worker's injection too) and the columns.
      expect(growth?.bytes).toBeGreaterThan(0);
      const ranking = file.toString("utf8", 0, file.length - columns - growth!.bytes - postingStarts.at(-1)! * 8 - 1).split("\n");
      expect(ranking.length).toBe(1 + 50_001 + 1);
      expect(JSON.parse(ranking.at(-2)!)).toMatchObject({ name: "Lesson 49999", description: "When the build breaks for reason 49999, read the log first.", metadata: { "Observation count": "6" } });
    });

    it.each([
      ["run directly", false],
      ["run as `iflow-memory hook session-start`", true],
    ])("gives up at its deadline on files too large to read in time, and the next session start finds them read in the background (%s)", async (_, viaCli) => {
      const { home, projectRoot, store } = workspace();
      // The worker and the background refresh, not relevance (whose index of 100,000 entries is a read of its own).
      useOriginalRanking(projectRoot);
      // Some 10 MB: no machine reads that within 50 ms.
      const entries = Array.from({ length: 100_000 }, (_, index) => `### Heuristic: Lesson ${index}\nWhen the build breaks for reason ${index}, read the log first.\n- Observation count: ${(index % 7) + 1}\n`);
      writeFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), entries.join("\n"));
      const env = { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" };
      const first = await hook(stdinFor(projectRoot), home, { env, viaCli });
      expect([first.code, first.stdout]).toEqual([0, ""]);
      expect(first.stderr).toMatch(/^iflow-memory: gave up after 50 ms; the session starts without memory; the memory files \(\d+\.\d MB\) are being read in the background for the next session\n$/);

      // The background process waits for the files to settle (two seconds), reads them and caches the injection.
      const cache = readdirSync(join(store, ".cache")).find((name) => name.endsWith(".json.refreshing"))!.replace(/\.refreshing$/, "");
      // The claim names that process (the hook handed it over before it exited).
      const { pid } = JSON.parse(readFileSync(join(store, ".cache", `${cache}.refreshing`), "utf8")) as { pid: number };
      for (let waited = 0; !existsSync(join(store, ".cache", cache)) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      // The process then releases its claim and exits, writing its code cache as it goes (under a
      // temporary name, renamed): waited for until it has ended, however long a loaded machine
      // takes to compile that cache.
      for (let waited = 0; isRunning(pid) && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      // Beside it, only the hook's code cache, the files' entries and the mark of the cache's last
      // pruning (no claim left, nothing half-written).
      expect(readdirSync(join(store, ".cache")).filter((name) => !/^code-[a-z-]+-[0-9a-f]{8}\.bin$/.test(name) && name !== "files" && name !== ".pruned")).toEqual([cache]);
      expect(readdirSync(join(store, ".cache/files")).filter((name) => !/^[0-9a-f]{8}-[0-9a-f]{8}\.json$/.test(name))).toEqual([]);
      const second = await hook(stdinFor(projectRoot), home, { env, viaCli });
      expect([second.code, second.stderr]).toEqual([0, ""]);
      expect(second.output!.additionalContext).toContain("### Heuristics\n### Heuristic: Lesson 99994\n");
    });

    it("after an edit of files too large to read in time, gives the memory as it was before at once, and the next session start the new", async () => {
      const { home, projectRoot, store } = workspace();
      useOriginalRanking(projectRoot);
      const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
      const entries = Array.from({ length: 100_000 }, (_, index) => `### Heuristic: Lesson ${index}\nWhen the build breaks for reason ${index}, read the log first.\n- Observation count: ${(index % 7) + 1}\n`);
      writeFileSync(heuristics, entries.join("\n"));
      const env = { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" };
      const cache = join(store, ".cache");
      // Until the background refresh has cached the injection of the files as they are now.
      const settle = async (): Promise<NonNullable<Awaited<ReturnType<typeof hook>>["output"]>> => {
        for (let waited = 0; waited < 60_000; waited += 200) {
          const run = await hook(stdinFor(projectRoot), home, { env });
          if (run.stderr === "" && run.output !== undefined && run.output !== null) return run.output;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        throw new Error("the background refresh never cached the injection");
      };
      const before = await settle();
      expect(before.additionalContext).toContain("### Heuristic: Lesson 99994\n");

      // An edit: the new learning would come first.
      writeFileSync(heuristics, `${entries.join("\n")}\n### Heuristic: Lesson fresh\nRead the new log first.\n- Observation count: 99\n`);
      const during = await hook(stdinFor(projectRoot), home, { env });
      expect(during.code).toBe(0);
      expect(during.output!.additionalContext).toBe(before.additionalContext);
      expect(during.stderr).toMatch(/^iflow-memory: the memory files changed since the last session; this one gets them as they were before; the memory files \(\d+\.\d MB\) are (being read in the background for the next session|being read for the next session by an earlier one)\n$/);
      expect(readdirSync(cache).some((name) => name.endsWith(".refreshing"))).toBe(true);
      const after = await settle();
      expect(after.additionalContext).toContain("### Heuristic: Lesson fresh\n");

      // Never across a change of the config: a config may have turned injection off. The files
      // are read for the new config — within the deadline or not, as a worker that finds injection
      // off is quick or not — and nothing of the injection made before is given or announced.
      const config = join(projectRoot, ".claude/iflow-dev.local.md");
      writeFileSync(config, "---\nmemory_injection_ranking: original\nmemory_prompt_recall: false\nmemory_injection_enabled: false\n---\n");
      writeFileSync(heuristics, entries.join("\n"));
      const changedConfig = await hook(stdinFor(projectRoot), home, { env });
      expect([changedConfig.code, changedConfig.stdout]).toEqual([0, ""]);
      expect(changedConfig.stderr).not.toContain("as they were before");
      // A config that still injects: the files are read for it (100,000 entries), which the
      // deadline cuts — never the injection made for the config before.
      writeFileSync(config, "---\nmemory_injection_ranking: original\nmemory_prompt_recall: false\nmemory_injection_limit: 3\n---\n");
      const limited = await hook(stdinFor(projectRoot), home, { env });
      expect([limited.code, limited.stdout]).toEqual([0, ""]);
      expect(limited.stderr).toMatch(/^iflow-memory: gave up after 50 ms; the session starts without memory/);
    });

    it("injects the local bank when the global store is a file, not a directory", async () => {
      const { home, projectRoot, store } = workspace();
      mkdirSync(join(store, ".."), { recursive: true });
      writeFileSync(store, "not a directory");
      const result = await hook(stdinFor(projectRoot), home);
      expect(result.code).toBe(0);
      expect(result.output?.additionalContext).toContain("Small Steps");
      expect(result.stderr).toContain("tracking not written");
    });

    it("injects nothing at limit 0 and everything at limit -1", async () => {
      const { home, projectRoot } = workspace({ bank: "iflow-kb-2026-02" });
      mkdirSync(join(projectRoot, ".claude"), { recursive: true });
      const config = join(projectRoot, ".claude/iflow-dev.local.md");
      writeFileSync(config, "---\nmemory_injection_limit: 0\n---\n");
      expect((await hook(stdinFor(projectRoot), home)).stdout).toBe("");
      writeFileSync(config, "---\nmemory_injection_limit: -1\nmemory_injection_max_chars: 10000000\n---\n");
      const all = await hook(stdinFor(projectRoot), home);
      // A size over 9,500 is capped: what is not shown in full is named in the index.
      const lines = all.output!.additionalContext.split("\n");
      const headers = lines.filter((line) => line.startsWith("### ") && !/^### (Anti-Patterns to Avoid|Heuristics|Patterns to Follow|More in memory \(titles only\))$/.test(line));
      const indexed = lines.filter((line) => /^- `[0-9a-f]{8,16}` /.test(line));
      const cli = await runNode(CLI_BIN, ["inject", "--project-root", projectRoot, "--limit", "-1", "--global-store", join(home, "none"), "--ignore-config", "--no-tracking", "--json"]);
      expect(headers.length + indexed.length).toBe((JSON.parse(cli.stdout) as { entries: unknown[] }).entries.length);
      expect(headers.length + indexed.length).toBeGreaterThan(20); // more than the default limit: -1 is no limit
    });

    it("gives up at its deadline with exit 0 and a one-line reason", async () => {
      const { home, projectRoot } = workspace();
      const result = await hook(null, home, { cwd: projectRoot, env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "300" } });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("gave up after 300 ms; the session starts without memory");
    });
  });

  describe("the SessionStart hook's stdin, whatever kind of file it is", () => {
    it("reads the same JSON from a socket, a shell pipe, a FIFO and a regular file", async () => {
      const { base, home, projectRoot } = workspace();
      // The same JSON but for the session: each run is a session of its own.
      const input = () => stdinFor(projectRoot);
      const fromSocket = await hook(input(), home);

      const fromShellPipe = spawnSync("sh", ["-c", 'printf %s "$HOOK_INPUT" | "$NODE" "$HOOK"'], {
        env: { PATH: process.env.PATH ?? "", HOME: home, HOOK_INPUT: input(), NODE: executable, HOOK: HOOK_BIN },
        encoding: "utf8",
      });

      const fifo = join(base, "stdin.fifo");
      execFileSync("mkfifo", [fifo]);
      const fifoEnd = openSync(fifo, constants.O_RDWR); // read-write: opening does not wait for a reader
      writeSync(fifoEnd, input());
      const writer = openSync(fifo, constants.O_WRONLY);
      closeSync(fifoEnd);
      const fifoReader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const fromFifo = hook({ descriptor: fifoReader }, home);
      closeSync(writer); // end of file once the hook has read what was written

      const file = join(base, "stdin.json");
      writeFileSync(file, input());
      const fileReader = openSync(file, "r");
      const fromFile = await hook({ descriptor: fileReader }, home);
      await fromFifo;
      [fifoReader, fileReader].forEach((descriptor) => closeSync(descriptor)); // the child had its own copies

      expect(fromSocket.output?.additionalContext).toContain("Small Steps");
      const results = [fromShellPipe, await fromFifo, fromFile].map((result) => ({ stdout: result.stdout, stderr: result.stderr }));
      expect(results).toEqual([0, 1, 2].map(() => ({ stdout: fromSocket.stdout, stderr: "" })));
    });

    it("does not wait for a FIFO that never closes: it reads what arrived and finishes", async () => {
      const { base, home, projectRoot } = workspace();
      const fifo = join(base, "stdin.fifo");
      execFileSync("mkfifo", [fifo]);
      const holder = openSync(fifo, constants.O_RDWR); // a writer that stays open for the whole test
      try {
        writeSync(holder, '{"hook_event_name":"SessionStart",');
        const result = await hook({ descriptor: holder }, home, { cwd: projectRoot });
        expect(result.code).toBe(0);
        expect(result.stderr).toBe(
          "iflow-memory: stdin did not close within 1000 ms; reading what arrived\niflow-memory: stdin is not valid JSON; using defaults (source startup, the current directory)\n",
        );
        expect(result.output?.additionalContext).toContain("Small Steps");
      } finally {
        closeSync(holder);
      }
    });

    it("reads a pipe without a deprecation warning, even where a warning would be a crash", async () => {
      const { home, projectRoot } = workspace();
      // --pending-deprecation warns about more deprecated APIs; --throw-deprecation turns a warning into a crash.
      const nodeOptions = ["--pending-deprecation", "--throw-deprecation"];
      const closed = await hook(stdinFor(projectRoot), home, { nodeOptions });
      const neverClosed = await hook(null, home, { cwd: projectRoot, nodeOptions });
      expect([closed.code, closed.stderr, closed.output?.additionalContext.includes("Small Steps")]).toEqual([0, "", true]);
      expect([neverClosed.code, neverClosed.stderr, neverClosed.output?.additionalContext.includes("Small Steps")]).toEqual([
        0,
        "iflow-memory: stdin did not close within 1000 ms; reading what arrived\n",
        true,
      ]);
    });

    it("uses the defaults, with a one-line warning, when stdin cannot be read (a directory)", async () => {
      const { home, projectRoot } = workspace();
      const directory = openSync(projectRoot, "r");
      const result = await hook({ descriptor: directory }, home, { cwd: projectRoot });
      closeSync(directory);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("iflow-memory: stdin could not be read (EISDIR); reading what arrived\n");
      expect(result.output?.additionalContext).toContain("Small Steps");
      expect(readFileSync(join(home, ".claude/iflow/memory/.last-injection.json"), "utf8")).toContain('"event": "startup"');
    });
  });

  describe("the hooks' code cache", () => {
    it("keeps V8's code cache in the store's cache folder, and answers the same with it, without it, and with a damaged, cut or stale one", async () => {
      const { home, projectRoot, store } = workspace();
      const cache = codeCacheFile(join(store, ".cache"), join(REPO_ROOT, "packages/hook-adapter/dist/session-start-run.cjs"), nodeOf(executable));
      const run = async () => {
        const result = await hook(stdinFor(projectRoot), home);
        return { code: result.code, stdout: result.stdout, stderr: result.stderr };
      };
      // Written by a run, with a modification time of its own in the past (later writes set it to now).
      const written = () => {
        const text = readFileSync(cache, "latin1");
        return [statSync(cache).mode & 0o777, statSync(cache).mtimeMs < Date.parse("2018-01-01"), text.includes("A".repeat(4096)), /run\.cjs\\",\\"1:/.test(text)];
      };
      const outcomes = [await run()];
      const afterFirst = written();
      outcomes.push(await run()); // from the cache

      const damaged = openSync(cache, "r+");
      writeSync(damaged, Buffer.alloc(4096, 0x41), 0, 4096, Math.floor(statSync(cache).size / 2));
      closeSync(damaged);
      outcomes.push(await run());
      const afterDamage = written();

      truncateSync(cache, Math.floor(statSync(cache).size / 3));
      outcomes.push(await run());
      const afterCut = written();

      // For another build of the bundle (its key names the file's size, times and inode), the file otherwise as written.
      const text = readFileSync(cache);
      const { atime, mtime } = statSync(cache);
      writeFileSync(cache, Buffer.from(text.toString("latin1").replace(/session-start-run\.cjs\\",\\"\d+/, 'session-start-run.cjs\\",\\"1'), "latin1"));
      utimesSync(cache, atime, mtime);
      outcomes.push(await run());
      const afterStale = written();

      rmSync(cache);
      outcomes.push(await run());
      const afterRemoval = written();

      // Neither readable nor replaceable: a folder in its place.
      rmSync(cache);
      mkdirSync(cache);
      outcomes.push(await run());

      expect(outcomes.map((outcome) => ({ ...outcome, stdout: outcome.stdout.includes("Small Steps") }))).toEqual(outcomes.map(() => ({ code: 0, stdout: true, stderr: "" })));
      expect(new Set(outcomes.map((outcome) => outcome.stdout)).size).toBe(1);
      // Each time written again: private, its own time, neither the damage nor the other key left.
      expect([afterFirst, afterDamage, afterCut, afterStale, afterRemoval]).toEqual([0, 1, 2, 3, 4].map(() => [0o600, true, false, false]));
      expect(readdirSync(join(store, ".cache")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    });

    // A project whose .nvmrc picks another node than the next one's: each node keeps its own cache
    // (on each node but the one running the tests, which takes the other turns).
    if (executable !== process.execPath) {
      it("keeps one per node, so that two nodes taking turns on a store leave each other's alone", async () => {
        const { home, projectRoot, store } = workspace();
        const bundle = join(REPO_ROOT, "packages/hook-adapter/dist/session-start-run.cjs");
        const mine = codeCacheFile(join(store, ".cache"), bundle, nodeOf(process.execPath));
        const theirs = codeCacheFile(join(store, ".cache"), bundle, nodeOf(executable));
        const here = await runHook(stdinFor(projectRoot), home, { node: process.execPath });
        const written = [readFileSync(mine), statSync(mine).mtimeMs];
        const there = await runHook(stdinFor(projectRoot), home, { node: executable });
        const hereAgain = await runHook(stdinFor(projectRoot), home, { node: process.execPath });
        expect([here.code, there.code, hereAgain.code, there.stdout === here.stdout, hereAgain.stdout === here.stdout]).toEqual([0, 0, 0, true, true]);
        expect([mine !== theirs, existsSync(theirs), readFileSync(mine).equals(written[0] as Buffer), statSync(mine).mtimeMs]).toEqual([true, true, true, written[1]]);
      });
    }

    it("keeps one for the prompt hook too", async () => {
      const { home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      const prompt = (session: string) => JSON.stringify({ session_id: session, cwd: projectRoot, hook_event_name: "UserPromptSubmit", prompt: "retry the embedding call when it times out" });
      const first = await runNode(PROMPT_HOOK_BIN, [], { node: executable, stdin: prompt("s1"), env: { HOME: home } });
      const second = await runNode(PROMPT_HOOK_BIN, [], { node: executable, stdin: prompt("s2"), env: { HOME: home } });
      expect([first.code, first.stderr, first.stdout.includes('"hookEventName":"UserPromptSubmit"'), second.code, second.stderr, second.stdout === first.stdout]).toEqual([0, "", true, 0, "", true]);
      expect(existsSync(codeCacheFile(join(store, ".cache"), join(REPO_ROOT, "packages/hook-adapter/dist/user-prompt-submit-run.cjs"), nodeOf(executable)))).toBe(true);
    });
  });

  describe("the SessionStart hook's warm start", () => {
    it.each([
      ["today's order", true],
      ["relevance: git may run for the signals", false],
    ])("loads neither the parser and YAML bundle, nor crypto or workers (%s)", async (_, original) => {
      const { base, home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      if (original) useOriginalRanking(projectRoot);
      const probe = moduleProbe(base);
      const run = async () => JSON.parse((await hook(stdinFor(projectRoot), home, { nodeOptions: ["--require", probe] })).stderr) as unknown;
      // Files younger than two seconds are never cached (they may change again within the clock's granularity).
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const cold = await run();
      // What the cold start read is cached by a background process it started as it exited.
      await refreshed(store);
      const warm = await run();
      // With relevance, git runs for the signals (the project has a .git folder); with today's order, nothing is spawned.
      const git = original ? [] : ["child_process"];
      // The probe sees what a cold start loads (the second bundle, crypto for the content hashes;
      // with relevance, git first: it runs while the files are parsed; with a config file, the
      // YAML parser's file to read it)…
      // (Files required, then those run with the code cache.)
      const yaml = original ? ["session-start-yaml.cjs"] : [];
      expect(cold).toEqual({ builtins: [...git, "crypto"], files: ["probe.cjs", "session-start.cjs", ...yaml, "session-start-run.cjs", "session-start-prepare.cjs"] });
      // …and a warm start loads none of it.
      expect(warm).toEqual({ builtins: git, files: ["probe.cjs", "session-start.cjs", "session-start-run.cjs"] });
    });

    it("keeps its caches apart from another build's on the same store: after the other build's start, its own is as warm as before", async () => {
      const { base, home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      // Another build of the hook (the plugin's and `setup claude`'s of another version, both run at
      // every start): the same code under another cache salt, which stamps the build.
      const stamp = MEMORY_CACHE_SALT.split("\t").at(-1)!;
      const dist = join(REPO_ROOT, "packages/hook-adapter/dist");
      const other = join(base, "other-build");
      mkdirSync(other);
      for (const name of readdirSync(dist).filter((file) => file.endsWith(".cjs"))) writeFileSync(join(other, name), readFileSync(join(dist, name), "utf8").replaceAll(stamp, [...stamp].reverse().join("")));
      const theirs = async () => runNode(join(other, "session-start.cjs"), [], { node: executable, stdin: stdinFor(projectRoot), env: { HOME: home } });
      // What the caches hold (each file's size and time), leaving out the sessions' claims and ledgers.
      const caches = () => {
        const folder = join(store, ".cache");
        const names = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((name) => !name.startsWith("sessions") && statSync(join(folder, name)).isFile());
        return Object.fromEntries(names.map((name) => [name, `${statSync(join(folder, name)).size} ${statSync(join(folder, name)).mtimeMs}`]));
      };
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      // Each build's first start, and what it left to a background process.
      for (const start of [() => hook(stdinFor(projectRoot), home), theirs]) {
        expect((await start()).code).toBe(0);
        await refreshed(store);
      }
      const warm = caches();
      const starts = [await hook(stdinFor(projectRoot), home), await theirs(), await hook(stdinFor(projectRoot), home)];
      await refreshed(store);
      expect(starts.map((start) => [start.code, start.stderr, start.stdout === starts[0]!.stdout])).toEqual(starts.map(() => [0, "", true]));
      expect(starts[0]!.stdout).toContain("additionalContext");
      // Nothing worked out again, nor written: each build found its own caches, two of each.
      expect(caches()).toEqual(warm);
      expect(Object.keys(warm).filter((name) => /^injection-[0-9a-f]+\.json$/.test(name))).toHaveLength(2);
    });

    it("with new signals, loads the ranker's own file to plan with, but not the parser and YAML bundle; with the same signals, neither", async () => {
      const { base, home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      const probe = moduleProbe(base);
      const run = async () => hook(stdinFor(projectRoot), home, { nodeOptions: ["--require", probe] });
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await run();
      // The ranking's cache, written by a background process.
      await refreshed(store);
      const again = await run();
      // A manifest in the project: its stack, and with it the session's query, is new.
      writeFileSync(join(projectRoot, "package.json"), JSON.stringify({ name: "retry-budget", dependencies: { "p-retry": "^6.0.0" } }));
      const signals = await run();
      const loaded = (result: { stderr: string }) => JSON.parse(result.stderr.split("\n").at(-2)!) as unknown;
      expect(loaded(again)).toEqual({ builtins: ["child_process"], files: ["probe.cjs", "session-start.cjs", "session-start-run.cjs"] });
      expect(loaded(signals)).toEqual({ builtins: ["child_process"], files: ["probe.cjs", "session-start.cjs", "session-start-run.cjs", "session-start-plan.cjs"] });
      expect(signals.output).toEqual((await hook(stdinFor(projectRoot), home, { env: { IFLOW_MEMORY_HOOK_CACHE: "0" } })).output);
      expect(signals.output).not.toEqual(again.output);
    });

    it("after a learning is appended, loads the grow bundle but not crypto: the new entry is hashed without it, the injection before the edit grown by it", async () => {
      const { base, home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      const probe = moduleProbe(base);
      const run = async () => hook(stdinFor(projectRoot), home, { nodeOptions: ["--require", probe] });
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await run();
      // The files kept by the background process the first start left that to.
      await refreshed(store);
      appendFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Bound Every Retry Loop\nA retry loop without a budget turns an outage into a storm.\n- Observation count: 40\n- Confidence: high\n");
      const edited = await run();
      // Not zlib either: the file's kept bytes are checked by their CRC-32, summed by the store's WebAssembly module.
      expect(JSON.parse(edited.stderr)).toEqual({ builtins: ["child_process"], files: ["probe.cjs", "session-start.cjs", "session-start-run.cjs", "session-start-grow.cjs"] });
      expect(edited.stdout).toContain("Bound Every Retry Loop");
    });

    it("after a learning is appended to a large file (16 KB or more; this one of 1,000 entries), gives what a start with no cache gives, and keeps the file with its tail (its CRC-32) again", async () => {
      const { base, home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      // Some 1,000 entries: copies of the real bank's heuristics, each an entry of its own.
      const heuristics = join(projectRoot, "docs/knowledge-bank/heuristics.md");
      const chunks = readFileSync(heuristics, "utf8").replace(/<!--[\s\S]*?-->/g, "").split(/^(?=### )/m).filter((chunk) => chunk.startsWith("### "));
      writeFileSync(heuristics, Array.from({ length: 1_000 }, (_, at) => chunks[at % chunks.length]!.replace("\n", ` (copy ${at})\n`)).join(""));
      expect(statSync(heuristics).size).toBeGreaterThan(128 * 1024);
      const probe = moduleProbe(base);
      const run = async (env: Record<string, string> = {}) => hook(stdinFor(projectRoot), home, { nodeOptions: ["--require", probe], env });
      // The tail kept with heuristics.md's entries (the cache file whose first line names it).
      const kept = () => {
        const files = join(store, ".cache/files");
        const lines = readdirSync(files)
          .map((name) => readFileSync(join(files, name), "utf8").split("\n"))
          .find((file) => file[0]!.includes(`"path":${JSON.stringify(heuristics)}`));
        return (JSON.parse(lines![1]!) as { tail?: { bytes: number } }).tail;
      };
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await run();
      // The file kept, and the ranking's cache written, by a background process: done before the
      // edit, or it would keep the edited file too, and the start after it would have nothing to read.
      await refreshed(store);
      expect(kept()?.bytes).toBe(statSync(heuristics).size);
      appendFileSync(heuristics, "\n### Heuristic: Bound Every Retry Loop\nA retry loop without a budget turns an outage into a storm.\n- Observation count: 40\n- Confidence: high\n");
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const edited = await run();
      const uncached = await run({ IFLOW_MEMORY_HOOK_CACHE: "0" });
      // The injection before the edit grown by the learning: the file's kept cache (over 1 MB,
      // which zlib's CRC-32 would sum) is not read, and the file itself (under 1 MB) is summed by
      // the store's WebAssembly module.
      expect(JSON.parse(edited.stderr.split("\n").at(-2)!)).toEqual({ builtins: ["child_process"], files: ["probe.cjs", "session-start.cjs", "session-start-run.cjs", "session-start-grow.cjs"] });
      expect(edited.output?.additionalContext).toContain("Bound Every Retry Loop");
      expect(edited.output).toEqual(uncached.output);
      // Kept again with the tail of the file as it is now (by the background process).
      await refreshed(store);
      expect(kept()?.bytes).toBe(statSync(heuristics).size);
    });

    it("after a learning is appended and settled, gives what a start with no cache gives, and leaves the ranking's cache to a background process: the whole index, which a start with new signals then reads", async () => {
      const { home, projectRoot, store } = workspace({ bank: "iflow-kb-2026-04", globalExample: true });
      const path = injectionCachePath(store, projectRoot);
      const fingerprintOf = (file: string) => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8").split("\n", 1)[0]!) as { fingerprint: string }).fingerprint : null);
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await hook(stdinFor(projectRoot), home);
      appendFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Bound Every Retry Loop\nA retry loop without a budget turns an outage into a storm.\n- Observation count: 40\n- Confidence: high\n");
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const edited = await hook(stdinFor(projectRoot), home);
      expect([edited.code, edited.stderr]).toEqual([0, ""]);
      expect(edited.output).toEqual((await hook(stdinFor(projectRoot), home, { env: { IFLOW_MEMORY_HOOK_CACHE: "0" } })).output);
      expect(edited.output!.additionalContext).toContain("Bound Every Retry Loop");
      // The background process writes the ranking of the files as they are now, releases its claim and exits.
      const now = fingerprintOf(path)!;
      const settled = () => fingerprintOf(rankingCachePath(path)) === now && !readdirSync(join(store, ".cache")).some((name) => name.endsWith(".tmp") || name.endsWith(".refreshing"));
      for (let waited = 0; !settled() && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled()).toBe(true);
      const kept = readCachedRanking(path, now)!;
      const whole = (await prepareSessionInjection({ projectRoot, globalStoreDir: store })).ranking!;
      expect(Object.fromEntries(indexTerms(kept.index))).toEqual(Object.fromEntries(indexTerms(whole.index)));
      expect(kept.candidates.map((entry) => entry.contentHash)).toEqual(whole.candidates.map((entry) => entry.contentHash));
      // A start with new signals (a manifest: the project's stack) ranks from it, as a start with no cache does.
      const before = await hook(stdinFor(projectRoot), home);
      writeFileSync(join(projectRoot, "package.json"), JSON.stringify({ name: "retry-budget", dependencies: { "p-retry": "^6.0.0" } }));
      const signals = await hook(stdinFor(projectRoot), home);
      expect(signals.output).toEqual((await hook(stdinFor(projectRoot), home, { env: { IFLOW_MEMORY_HOOK_CACHE: "0" } })).output);
      expect(signals.output).not.toEqual(before.output);
    });
  });
});

// Until no background process holds a claim on the store's caches (it writes the ranking's cache, then releases it).
async function refreshed(store: string): Promise<void> {
  const claimed = () => readdirSync(join(store, ".cache")).some((name) => name.endsWith(".refreshing"));
  for (let waited = 0; claimed() && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

// A module to preload (`--require`) that writes to stderr, as the process exits, which of crypto,
// worker_threads, child_process and zlib it required and which files it loaded: what a start costs is
// mostly loading.
function moduleProbe(base: string): string {
  const probe = join(base, "probe.cjs");
  writeFileSync(
    probe,
    dedent`
      const Module = require("module");
      const builtins = [];
      const load = Module.prototype.require;
      Module.prototype.require = function (id) {
        const name = id.replace(/^node:/, "");
        if (/^(crypto|worker_threads|child_process|zlib)$/.test(name) && !builtins.includes(name)) builtins.push(name);
        return load.apply(this, arguments);
      };
      // Bundles run with V8's code cache are compiled as vm scripts, not required.
      const vm = require("vm");
      const scripts = [];
      vm.Script = class extends vm.Script {
        constructor(code, options) {
          super(code, options);
          scripts.push(require("path").basename(options.filename));
        }
      };
      process.on("exit", () => require("fs").writeSync(2, JSON.stringify({ builtins, files: [...Object.keys(require.cache).map((file) => require("path").basename(file)), ...scripts] }) + "\\n"));
    `,
  );
  return probe;
}
