import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CONFIG, injectionCachePath, planCachePath, prepareSessionInjection, rankingCachePath, readConfig, type SessionSignals } from "@iflow-memory/store";
import { copyCorpus, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it, vi } from "vitest";
import type { HookIO } from "./hook-runtime.js";
import { runSessionStartHook } from "./run-session-start-hook.js";

function setup(): { projectRoot: string; home: string; storeDir: string } {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  mkdirSync(join(projectRoot, ".git"));
  writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit often.\n");
  const home = join(base, "home");
  return { projectRoot, home, storeDir: join(home, ".claude/iflow/memory") };
}

async function start(
  projectRoot: string,
  home: string,
  options: { source?: string; env?: Record<string, string>; minutesLater?: number; stdinAtOnce?: boolean; onPrepare?: (options: Parameters<typeof prepareSessionInjection>[0]) => void } = {},
) {
  let stdout = "";
  const prepare = vi.fn((sources: Parameters<typeof prepareSessionInjection>[0]) => (options.onPrepare?.(sources), prepareSessionInjection(sources)));
  const json = JSON.stringify({ hook_event_name: "SessionStart", source: options.source ?? "startup", cwd: projectRoot });
  const chunks = (async function* () {
    yield json;
  })();
  const io: HookIO = {
    prepare,
    // As a file, read at once, or as a pipe to wait on.
    stdin: options.stdinAtOnce === true ? Object.assign(chunks, { readAtOnce: () => new TextEncoder().encode(json) }) : chunks,
    stdout: { write: (text: string, callback?: () => void) => ((stdout += text), callback?.(), true) },
    stderr: { write: () => true },
    env: { HOME: home, ...options.env },
    cwd: projectRoot,
    // Files written by the test are seconds old only from a later clock.
    now: () => new Date(Date.now() + (options.minutesLater ?? 1) * 60_000),
  };
  await runSessionStartHook(io);
  const context = stdout === "" ? null : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  return { context, prepared: prepare.mock.calls.length };
}

describe("runSessionStartHook (injection cache)", () => {
  it("works the injection out once and serves later session starts from the cache", async () => {
    const { projectRoot, home } = setup();
    const first = await start(projectRoot, home);
    const second = await start(projectRoot, home);
    expect([first.prepared, second.prepared, second.context]).toEqual([1, 0, first.context]);
    expect(first.context).toContain("Commit often.");
  });

  it("works it out again after a knowledge-bank file changes", async () => {
    const { projectRoot, home } = setup();
    await start(projectRoot, home);
    writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit very often.\n");
    const after = await start(projectRoot, home, { minutesLater: 2 });
    expect(after.prepared).toBe(1);
    expect(after.context).toContain("Commit very often.");
  });

  it("after an edit of a memory file, takes the config of the injection made from the config file as it is, and reads it again once the file changed", async () => {
    const { projectRoot, home } = setup();
    mkdirSync(join(projectRoot, ".claude"));
    const configFile = join(projectRoot, ".claude/iflow-dev.local.md");
    // A limit of one entry, and a value that is a warning: both come from the config as read.
    writeFileSync(configFile, "---\nmemory_injection_limit: 1\nmemory_injection_max_chars: lots\n---\n");
    writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit often.\n\n### Pattern: Green Builds\nKeep main green.\n");
    const given: unknown[] = [];
    const onPrepare = (options: { config?: unknown }) => given.push(options.config);
    await start(projectRoot, home, { onPrepare });
    appendFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "\n### Pattern: Review First\nRead the diff before the tests.\n");
    const edited = await start(projectRoot, home, { minutesLater: 2, onPrepare });
    const read = await readConfig(projectRoot);
    expect(read.warnings).toHaveLength(1);
    expect(given).toEqual([undefined, { config: read.config, warnings: read.warnings }]);
    // What the files give read whole, the cache off.
    const whole = await start(projectRoot, home, { minutesLater: 2, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(edited.context).toBe(whole.context);
    expect(edited.context?.match(/^### Pattern: /gm)).toHaveLength(1);

    writeFileSync(configFile, "---\nmemory_injection_limit: 2\n---\n");
    const reconfigured = await start(projectRoot, home, { minutesLater: 3, onPrepare });
    expect(given.at(-1)).toBeUndefined();
    expect(reconfigured.context?.match(/^### Pattern: /gm)).toHaveLength(2);
  });

  it("without a config file, gives the defaults to the preparation instead of looking for the file again", async () => {
    const { projectRoot, home } = setup();
    const given: unknown[] = [];
    await start(projectRoot, home, { onPrepare: (options) => given.push(options.config) });
    expect(given).toEqual([{ config: DEFAULT_CONFIG, warnings: [] }]);
  });

  it("has the memory files read in the hook's own thread (its process cannot exit before a read on libuv's threads returns), with the cache on", async () => {
    const { projectRoot, home } = setup();
    const given: unknown[] = [];
    const onPrepare = (options: { fileCache?: { inThread?: boolean } }) => given.push(options.fileCache?.inThread);
    await start(projectRoot, home, { onPrepare });
    await start(projectRoot, home, { onPrepare, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(given).toEqual([true, undefined]);
  });

  it("applies the cached config's events: no memory on compact, from the cache as without it", async () => {
    const { projectRoot, home } = setup();
    await start(projectRoot, home);
    expect(await start(projectRoot, home, { source: "compact" })).toEqual({ context: null, prepared: 0 });
  });

  it("does not cache while a file is younger than the settle time, and not at all with IFLOW_MEMORY_HOOK_CACHE=0", async () => {
    const { projectRoot, home, storeDir } = setup();
    await start(projectRoot, home, { minutesLater: 0 });
    expect(existsSync(injectionCachePath(storeDir, projectRoot))).toBe(false);
    await start(projectRoot, home, { env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(existsSync(injectionCachePath(storeDir, projectRoot))).toBe(false);
    expect((await start(projectRoot, home, { env: { IFLOW_MEMORY_HOOK_CACHE: "0" } })).prepared).toBe(1);
  });

  it("recomputes over a corrupt cache file", async () => {
    const { projectRoot, home, storeDir } = setup();
    const good = await start(projectRoot, home);
    writeFileSync(injectionCachePath(storeDir, projectRoot), "{not json");
    expect(await start(projectRoot, home)).toEqual({ context: good.context, prepared: 1 });
  });

  it("recomputes over a cache file whose injection is damaged (a config's events no list), instead of failing without memory", async () => {
    const { projectRoot, home, storeDir } = setup();
    const good = await start(projectRoot, home);
    const path = injectionCachePath(storeDir, projectRoot);
    // The injection without today's plan, then today's plan on a line of its own.
    const [head, plan] = readFileSync(path, "utf8").split("\n");
    const cached = JSON.parse(head!) as { injection: { config: Record<string, unknown> } };
    cached.injection.config.injectionEvents = 7;
    writeFileSync(path, `${JSON.stringify(cached)}\n${plan}`);
    expect(await start(projectRoot, home)).toEqual({ context: good.context, prepared: 1 });
  });

  it("takes the last start's plan when the files and the signals are those of the last start, without the index; ranks again when the signals change", async () => {
    const base = makeTempDir();
    const projectRoot = copyCorpus("iflow-kb-2026-04", base);
    const home = join(base, "home");
    const storeDir = join(home, ".claude/iflow/memory");
    const signals = (branch: string): SessionSignals => ({ project: "semantic-memory", branch, changedFiles: ["semantic_memory/retry.py"], commitSubjects: [], feature: null, stack: [], skipped: [] });
    const relevant = async (branch: string) => {
      let stdout = "";
      const prepare = vi.fn(prepareSessionInjection);
      await runSessionStartHook({
        prepare,
        gatherSignals: async () => signals(branch),
        stdin: Object.assign((async function* () {})(), { readAtOnce: () => new TextEncoder().encode(JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: projectRoot })) }),
        stdout: { write: (text: string, callback?: () => void) => ((stdout += text), callback?.(), true) },
        stderr: { write: () => true },
        env: { HOME: home },
        cwd: projectRoot,
        now: () => new Date(Date.now() + 60_000),
      });
      return { context: (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext, prepared: prepare.mock.calls.length };
    };
    const first = await relevant("fix/sqlite-fts5-search");
    // Without the index, a start that needs it works everything out again (prepared: 1).
    rmSync(rankingCachePath(injectionCachePath(storeDir, projectRoot)));
    const same = await relevant("fix/sqlite-fts5-search");
    const other = await relevant("feature/hook-start-up-cost");
    const fresh = await relevant("feature/hook-start-up-cost");
    expect([same, other.prepared, fresh.prepared, other.context === fresh.context, other.context === first.context]).toEqual([{ context: first.context, prepared: 0 }, 1, 0, true, false]);
    expect(existsSync(planCachePath(injectionCachePath(storeDir, projectRoot)))).toBe(true);
  });

  it("after a start that failed on a cache no read checks (its ranking's entry lines damaged), works the next one out anew instead of failing again", async () => {
    const base = makeTempDir();
    const projectRoot = copyCorpus("iflow-kb-2026-04", base);
    const home = join(base, "home");
    const storeDir = join(home, ".claude/iflow/memory");
    const run = async (branch: string) => {
      let stdout = "";
      let stderr = "";
      const prepare = vi.fn(prepareSessionInjection);
      await runSessionStartHook({
        prepare,
        gatherSignals: async () => ({ project: "semantic-memory", branch, changedFiles: ["semantic_memory/retry.py"], commitSubjects: [], feature: null, stack: [], skipped: [] }),
        stdin: Object.assign((async function* () {})(), { readAtOnce: () => new TextEncoder().encode(JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: projectRoot })) }),
        stdout: { write: (text: string, callback?: () => void) => ((stdout += text), callback?.(), true) },
        stderr: { write: (text: string) => ((stderr += text), true) },
        env: { HOME: home },
        cwd: projectRoot,
        now: () => new Date(Date.now() + 60_000),
      });
      const context = stdout === "" ? null : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
      return { context, stderr, prepared: prepare.mock.calls.length };
    };
    const good = await run("fix/sqlite-fts5-search");
    // Every entry's line in the ranking cache replaced by JSON of the same length that is no entry:
    // the first line (the offsets) still reads, an entry's text does not.
    const rankingPath = rankingCachePath(injectionCachePath(storeDir, projectRoot));
    const bytes = readFileSync(rankingPath);
    const header = bytes.indexOf(10);
    // (The columns that end the file, as long as its header says, hold what ranking reads.)
    const columnsStart = bytes.length - (JSON.parse(bytes.toString("utf8", 0, header)) as { columns: number }).columns;
    const lines = bytes.subarray(header + 1, columnsStart).toString("latin1").split("\n");
    const postings = lines.length - 2;
    const damaged = lines.map((line, at) => (at < postings && line.length >= 8 ? `{"x":"${"x".repeat(line.length - 8)}"}` : line));
    writeFileSync(rankingPath, Buffer.concat([bytes.subarray(0, header + 1), Buffer.from(damaged.join("\n"), "latin1"), bytes.subarray(columnsStart)]));
    const failed = await run("feature/hook-start-up-cost");
    expect(failed.context).toBeNull();
    expect(failed.stderr).toMatch(/^iflow-memory: failed \(.*\); the session starts without memory\n$/);
    const next = await run("fix/sqlite-fts5-search");
    expect([next.context, next.prepared, next.stderr]).toEqual([good.context, 1, ""]);
  });

  it("sets no timer when stdin is there at once and the injection is cached, and one when it must wait (today's order: no git to wait for)", async () => {
    const { projectRoot, home } = setup();
    mkdirSync(join(projectRoot, ".claude"));
    writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_ranking: original\n---\n");
    await start(projectRoot, home);
    const setTimer = vi.spyOn(globalThis, "setTimeout");
    try {
      const atOnce = await start(projectRoot, home, { stdinAtOnce: true });
      const timersAtOnce = setTimer.mock.calls.length;
      const waited = await start(projectRoot, home);
      expect([atOnce.prepared, timersAtOnce, waited.context === atOnce.context, setTimer.mock.calls.length > timersAtOnce]).toEqual([0, 0, true, true]);
    } finally {
      setTimer.mockRestore();
    }
  });
});
