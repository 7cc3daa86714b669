import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claimCacheRefresh, extendSessionInjection, injectionCachePath, prepareSessionInjection, rankingCachePath, releaseCacheRefresh, type SessionInjection } from "@iflow-memory/store";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it, vi } from "vitest";
import { IN_PROCESS_MAX_BYTES, refreshCachedInjection, type HookIO, type InjectionSources } from "./hook-runtime.js";
import { runSessionStartHook } from "./run-session-start-hook.js";

const ENTRY = "### Pattern: Small Steps\nCommit often.\n";

/** A project whose knowledge bank is `size` bytes: one entry, then a comment as padding. */
function setup(size: "small" | "large"): { projectRoot: string; home: string; storeDir: string } {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  mkdirSync(join(projectRoot, ".git"));
  const padding = size === "large" ? `<!-- ${"x".repeat(IN_PROCESS_MAX_BYTES)} -->\n` : "";
  writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), `${ENTRY}${padding}`);
  const home = join(base, "home");
  return { projectRoot, home, storeDir: join(home, ".claude/iflow/memory") };
}

const never = (): Promise<SessionInjection> => new Promise(() => undefined);

async function start(projectRoot: string, home: string, io: Partial<HookIO> & { env?: Record<string, string> } = {}) {
  let stdout = "";
  let stderr = "";
  const json = JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: projectRoot });
  const full: HookIO = {
    prepare: prepareSessionInjection,
    stdin: (async function* () {
      yield json;
    })(),
    stdout: { write: (text: string, callback?: () => void) => ((stdout += text), callback?.(), true) },
    stderr: { write: (text: string) => ((stderr += text), true) },
    cwd: projectRoot,
    // Files written by the test are seconds old only from a later clock.
    now: () => new Date(Date.now() + 60_000),
    ...io,
    env: { HOME: home, ...io.env },
  };
  await runSessionStartHook(full);
  const context = stdout === "" ? null : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  return { context, stderr };
}

describe("runSessionStartHook (large memory files)", () => {
  it("works small files out in its own thread and files over IN_PROCESS_MAX_BYTES aside", async () => {
    for (const size of ["small", "large"] as const) {
      const { projectRoot, home } = setup(size);
      const prepare = vi.fn(prepareSessionInjection);
      const prepareAside = vi.fn(prepareSessionInjection);
      const { context } = await start(projectRoot, home, { prepare, prepareAside, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
      expect([size, prepare.mock.calls.length, prepareAside.mock.calls.length]).toEqual(size === "small" ? ["small", 1, 0] : ["large", 0, 1]);
      expect(context).toContain("Commit often.");
    }
  });

  it("caches what was worked out aside, like any injection", async () => {
    const { projectRoot, home } = setup("large");
    const prepareAside = vi.fn(prepareSessionInjection);
    const first = await start(projectRoot, home, { prepareAside });
    const second = await start(projectRoot, home, { prepareAside });
    expect([prepareAside.mock.calls.length, second.context]).toEqual([1, first.context]);
  });

  it("stops waiting at the deadline, starts one background refresh, and says so in one line", async () => {
    const { projectRoot, home, storeDir } = setup("large");
    const refreshInBackground = vi.fn();
    const env = { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" };
    const first = await start(projectRoot, home, { prepareAside: never, refreshInBackground, env });
    expect(first).toEqual({
      context: null,
      stderr: "iflow-memory: gave up after 50 ms; the session starts without memory; the memory files (4.0 MB) are being read in the background for the next session\n",
    });
    expect(refreshInBackground.mock.calls).toEqual([[{ projectRoot, globalStoreDir: storeDir }]]);
    expect(existsSync(`${injectionCachePath(storeDir, projectRoot)}.refreshing`)).toBe(true);

    // A session starting while that refresh runs leaves it to finish.
    const second = await start(projectRoot, home, { prepareAside: never, refreshInBackground, env });
    expect(second.stderr).toContain("are being read for the next session by an earlier one");
    expect(refreshInBackground).toHaveBeenCalledTimes(1);
  });

  it("releases the claim and says the files take too long when the background refresh cannot start", async () => {
    const { projectRoot, home, storeDir } = setup("large");
    const refreshInBackground = vi.fn(() => {
      throw new Error("spawn EAGAIN");
    });
    const { stderr } = await start(projectRoot, home, { prepareAside: never, refreshInBackground, env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" } });
    expect(stderr).toContain("; the memory files (4.0 MB) take longer than that to read\n");
    expect(existsSync(`${injectionCachePath(storeDir, projectRoot)}.refreshing`)).toBe(false);
  });

  it("starts a background refresh as the process exits (atExit), after the output, and gives its claim back if it cannot start then", async () => {
    // A first start (small files): it writes the injection and leaves the ranking's cache to the refresh.
    const small = setup("small");
    const path = injectionCachePath(small.storeDir, small.projectRoot);
    const atExit: Array<() => void> = [];
    const refreshInBackground = vi.fn();
    const first = await start(small.projectRoot, small.home, { refreshInBackground, atExit: (task) => atExit.push(task) });
    expect(first.context).toContain("Commit often.");
    expect([refreshInBackground.mock.calls.length, existsSync(`${path}.refreshing`), existsSync(rankingCachePath(path))]).toEqual([0, true, false]);
    for (const task of atExit.splice(0)) task();
    expect(refreshInBackground.mock.calls).toEqual([[{ projectRoot: small.projectRoot, globalStoreDir: small.storeDir }]]);

    // Large files that outlast the deadline: a refresh that cannot start as the process exits gives its claim back.
    const large = setup("large");
    const claim = `${injectionCachePath(large.storeDir, large.projectRoot)}.refreshing`;
    const failing = vi.fn(() => {
      throw new Error("spawn EAGAIN");
    });
    const gaveUp = await start(large.projectRoot, large.home, { prepareAside: never, refreshInBackground: failing, atExit: (task) => atExit.push(task), env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" } });
    expect(gaveUp.stderr).toContain("are being read in the background for the next session");
    expect([failing.mock.calls.length, existsSync(claim)]).toEqual([0, true]);
    for (const task of atExit.splice(0)) task();
    expect([failing.mock.calls.length, existsSync(claim)]).toEqual([1, false]);
  });

  it("starts no refresh, and says why, when the global store cannot hold a cache", async () => {
    const { projectRoot, home, storeDir } = setup("large");
    mkdirSync(storeDir, { recursive: true });
    writeFileSync(join(storeDir, ".cache"), "a file, not a folder");
    const refreshInBackground = vi.fn();
    const { stderr } = await start(projectRoot, home, { prepareAside: never, refreshInBackground, env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" } });
    expect(stderr).toBe(`iflow-memory: gave up after 50 ms; the session starts without memory; the memory files (4.0 MB) take longer than that to read, and ${join(storeDir, ".cache")} cannot cache them\n`);
    expect(refreshInBackground).not.toHaveBeenCalled();
  });

  it("starts no refresh when the cache is off (IFLOW_MEMORY_HOOK_CACHE=0)", async () => {
    const refreshInBackground = vi.fn();
    const large = setup("large");
    const off = await start(large.projectRoot, large.home, { prepareAside: never, refreshInBackground, env: { IFLOW_MEMORY_HOOK_CACHE: "0", IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" } });
    const small = setup("small");
    await start(small.projectRoot, small.home, { refreshInBackground, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(off.stderr).toBe("iflow-memory: gave up after 50 ms; the session starts without memory\n");
    expect(refreshInBackground).not.toHaveBeenCalled();
  });

  it("leaves what it reads of small settled files to the refresh it claimed before reading them, also when it gives up on them", async () => {
    const small = setup("small");
    const path = injectionCachePath(small.storeDir, small.projectRoot);
    const refreshInBackground = vi.fn();
    const slow = await start(small.projectRoot, small.home, { prepare: never, refreshInBackground, env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "50" } });
    expect(slow.stderr).toBe("iflow-memory: gave up after 50 ms; the session starts without memory\n");
    expect(refreshInBackground.mock.calls).toEqual([[{ projectRoot: small.projectRoot, globalStoreDir: small.storeDir }]]);
    // The start read the files and kept nothing: neither their entries nor the injection.
    releaseCacheRefresh(path);
    const read = await start(small.projectRoot, small.home, { refreshInBackground });
    expect(read.context).toContain("Commit often.");
    expect([existsSync(path), existsSync(join(small.storeDir, ".cache", "files"))]).toEqual([false, false]);
    expect(refreshInBackground).toHaveBeenCalledTimes(2);
  });
});

describe("runSessionStartHook (the refresh's claim)", () => {
  it("hands its claim to the refresh it starts: the claim holds while that process runs, and is taken over once it has ended", async () => {
    const { projectRoot, home, storeDir } = setup("small");
    const path = injectionCachePath(storeDir, projectRoot);
    // A refresh that runs (this process), then one that has ended (a process that ran and exited).
    const running = await start(projectRoot, home, { refreshInBackground: vi.fn(() => process.pid) });
    expect(running.context).toContain("Commit often.");
    expect(claimCacheRefresh(path)).toBe("taken");
    releaseCacheRefresh(path);
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const refreshInBackground = vi.fn(() => ended);
    await start(projectRoot, home, { refreshInBackground });
    expect(refreshInBackground).toHaveBeenCalledTimes(1);
    // The next start finds the files as unkept as before and the claim's refresh gone: it claims and starts one.
    await start(projectRoot, home, { refreshInBackground });
    expect(refreshInBackground).toHaveBeenCalledTimes(2);
  });
});

describe("runSessionStartHook (its deadline)", () => {
  it("counts the deadline from the process's start (startedAt), so that node's start and the bundle's load are inside it", async () => {
    const { projectRoot, home } = setup("small");
    // Reading the files takes a moment; started 10 s ago with a deadline of 2 s, the hook has none left.
    const moment: HookIO["prepare"] = (options) => new Promise((resolve) => setTimeout(() => resolve(prepareSessionInjection(options)), 100));
    const late = await start(projectRoot, home, { prepare: moment, startedAt: Date.now() - 10_000, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(late).toEqual({ context: null, stderr: "iflow-memory: gave up after 2000 ms; the session starts without memory\n" });
    // Started now: the same work is given its 2 s (and here it needs none).
    const inTime = await start(projectRoot, home, { prepare: moment, startedAt: Date.now(), env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(inTime.context).toContain("Commit often.");
  });
});

describe("refreshCachedInjection", () => {
  it("caches the injection for the next session start and releases the claim", async () => {
    const { projectRoot, home, storeDir } = setup("small");
    const sources: InjectionSources = { projectRoot, globalStoreDir: storeDir };
    expect(claimCacheRefresh(injectionCachePath(storeDir, projectRoot))).toBe("claimed");
    const sleep = vi.fn(async () => undefined);
    await refreshCachedInjection({ ...sources, prepare: prepareSessionInjection, sleep, now: () => Date.now() + 60_000 });
    expect(existsSync(`${injectionCachePath(storeDir, projectRoot)}.refreshing`)).toBe(false);
    const prepare = vi.fn(never);
    const next = await start(projectRoot, home, { prepare });
    expect([prepare.mock.calls.length, next.context]).toEqual([0, expect.stringContaining("Commit often.")]);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("lets files changed a moment ago settle before it reads them, and caches nothing if they stay unsettled", async () => {
    const { projectRoot, storeDir } = setup("small");
    const sleep = vi.fn(async () => undefined);
    // The clock stands still: the files written a moment ago never settle.
    await refreshCachedInjection({ projectRoot, globalStoreDir: storeDir, prepare: prepareSessionInjection, sleep, now: () => Date.now() });
    expect(sleep).toHaveBeenCalledWith(2000);
    expect(existsSync(injectionCachePath(storeDir, projectRoot))).toBe(false);
  });

  it("releases the claim when the injection cannot be worked out", async () => {
    const { projectRoot, storeDir } = setup("small");
    expect(claimCacheRefresh(injectionCachePath(storeDir, projectRoot))).toBe("claimed");
    const failing = () => Promise.reject(new Error("out of memory"));
    await expect(refreshCachedInjection({ projectRoot, globalStoreDir: storeDir, prepare: failing, now: () => Date.now() + 60_000 })).rejects.toThrow("out of memory");
    expect(existsSync(`${injectionCachePath(storeDir, projectRoot)}.refreshing`)).toBe(false);
  });
});

describe("runSessionStartHook (large memory files grown by learnings appended)", () => {
  it("gives the injection before the edit grown by the learning appended, at once and with no note, and still starts the refresh", async () => {
    const { projectRoot, home, storeDir } = setup("large");
    // The injection and its ranking's cache, with what grows it, as a background refresh writes
    // them once the files have settled (what it reads of them is kept only then).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await refreshCachedInjection({ projectRoot, globalStoreDir: storeDir, prepare: prepareSessionInjection });
    const patterns = join(projectRoot, "docs/knowledge-bank/patterns.md");
    appendFileSync(patterns, "\n### Pattern: Budgeted Retries\nGive every call a retry budget.\n- Observation count: 9\n");
    const refreshInBackground = vi.fn();
    const grow = vi.fn((earlier: SessionInjection, sources: InjectionSources) => extendSessionInjection(earlier, { projectRoot: sources.projectRoot }));
    const grown = await start(projectRoot, home, { prepareAside: never, grow, refreshInBackground, env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "2000" } });
    expect(grow).toHaveBeenCalledTimes(1);
    expect(grown.stderr).toBe("");
    expect(grown.context).toContain("Give every call a retry budget.");
    expect(refreshInBackground).toHaveBeenCalledTimes(1);
    // What the files give when worked out whole.
    const read = await start(projectRoot, home, { prepareAside: prepareSessionInjection, env: { IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(grown.context).toBe(read.context);

    // Not a learning appended (the file changed before its end): the injection as it was before, and the note.
    releaseCacheRefresh(injectionCachePath(storeDir, projectRoot));
    writeFileSync(patterns, readFileSync(patterns, "utf8").replace("Commit often.", "Commit very often."));
    const before = await start(projectRoot, home, { prepareAside: never, grow, refreshInBackground, env: { IFLOW_MEMORY_HOOK_DEADLINE_MS: "2000" } });
    expect(before.stderr).toContain("this one gets them as they were before");
    expect(before.context).toContain("Commit often.");
    expect(before.context).not.toContain("Give every call a retry budget.");
  });
});
