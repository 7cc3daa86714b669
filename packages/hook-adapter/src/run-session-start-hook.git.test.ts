import { execFileSync, spawn, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { extendSessionInjection, injectionCachePath, planCachePath, prepareSessionInjection, rankingCachePath, type SessionInjection } from "@iflow-memory/store";
import { CORPORA_DIR, isRunning, makeTempDir, slowFakeGit } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import type { HookIO } from "./hook-runtime.js";
import { runSessionStartHook } from "./run-session-start-hook.js";

// A project in a git repository, its bank committed a minute ago as far as the hook's clock goes.
function setup(config?: string): { projectRoot: string; home: string } {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit often.\n");
  if (config !== undefined) {
    mkdirSync(join(projectRoot, ".claude"));
    writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), `---\n${config}\n---\n`);
  }
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: projectRoot });
  return { projectRoot, home: join(base, "home") };
}

// A session start that notes when git is spawned and when the memory files are worked out (or,
// with `grow`, the injection before an edit is grown).
async function start(projectRoot: string, home: string, source = "startup", grow = false): Promise<{ events: string[]; context: string | null }> {
  const events: string[] = [];
  let stdout = "";
  const io: HookIO = {
    prepare: async (options) => {
      events.push("prepare");
      return prepareSessionInjection(options);
    },
    ...(grow
      ? {
          grow: async (earlier, sources) => {
            events.push("grow");
            const grown = await extendSessionInjection(earlier, { projectRoot: sources.projectRoot });
            return grown === null ? null : notingPlanReads(grown, events);
          },
        }
      : {}),
    spawn: ((...args: Parameters<typeof spawn>) => {
      events.push(`git ${(args[1] as string[])[1]}`);
      return spawn(...args);
    }) as HookIO["spawn"],
    spawnSync: ((...args: Parameters<typeof spawnSync>) => {
      events.push(`git ${(args[1] as string[])[1]} now`);
      return spawnSync(...args);
    }) as HookIO["spawnSync"],
    stdin: (async function* () {
      yield JSON.stringify({ hook_event_name: "SessionStart", source, cwd: projectRoot });
    })(),
    stdout: { write: (text: string, callback?: () => void) => ((stdout += text), callback?.(), true) },
    stderr: { write: () => true },
    env: { HOME: home, PATH: process.env.PATH },
    cwd: projectRoot,
    now: () => new Date(Date.now() + 60_000),
  };
  await runSessionStartHook(io);
  return { events, context: stdout === "" ? null : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext };
}

// The injection, noting in `events` each time its today's plan is read (a getter, worked out when
// first read: a start that ranks has no use for it).
function notingPlanReads(injection: SessionInjection, events: string[]): SessionInjection {
  const plan = Object.getOwnPropertyDescriptor(injection, "plan")!;
  return Object.defineProperty(injection, "plan", {
    get: () => (events.push("today's plan"), plan.get === undefined ? plan.value : plan.get.call(injection)),
    enumerable: true,
    configurable: true,
  });
}

describe("runSessionStartHook (git while the memory files are read)", () => {
  it("starts git before working the files out when the config ranks as far as is known: no config file (the defaults)", async () => {
    const { projectRoot, home } = setup();
    const first = await start(projectRoot, home);
    expect(first.events).toEqual(["git status", "prepare"]);
    expect(first.context).toContain("Commit often.");
  });

  it("with a config file, starts git first only when an injection made from that same file says it ranks", async () => {
    const { projectRoot, home } = setup("memory_injection_limit: 5");
    // Nothing known of the config before it is read: git after.
    expect((await start(projectRoot, home)).events).toEqual(["prepare", "git status"]);
    writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit very often.\n");
    const after = await start(projectRoot, home);
    expect(after.events).toEqual(["git status", "prepare"]);
    expect(after.context).toContain("Commit very often.");
  });

  it("with a plan of these files to compare its signals with, runs git to its answer at once (nothing to read while it runs): the plan kept, or one made anew", async () => {
    const { projectRoot, home } = setup();
    // Settled (the files' caches go by the real clock): the injection and its plan are kept.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const first = await start(projectRoot, home);
    expect(first.events).toEqual(["git status", "prepare"]);
    const again = await start(projectRoot, home);
    expect(again).toEqual({ events: ["git status now"], context: first.context });
    // New signals: a plan made anew, as a start that reads the files makes it (another store, nothing cached).
    writeFileSync(join(projectRoot, "retry_budget.py"), "# count the retries\n");
    const changed = await start(projectRoot, home);
    expect(changed.events).toEqual(["git status now"]);
    expect(changed.context).toBe((await start(projectRoot, join(home, "other"))).context);
  });

  it("where it ranks for its signals, never reads today's plan of the cached injection: a start with the plan kept, or one made anew, injects as before with that line damaged", async () => {
    const { projectRoot, home } = setup();
    cpSync(join(CORPORA_DIR, "iflow-kb-2026-04/docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
    execFileSync("git", ["checkout", "-q", "-b", "fix/retry-budget-timeouts"], { cwd: projectRoot });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const first = await start(projectRoot, home);
    expect(first.events).toEqual(["git status", "prepare"]);
    // Today's plan is the cached injection's second line (parsed when first read).
    const path = injectionCachePath(join(home, ".claude/iflow/memory"), projectRoot);
    const [head] = readFileSync(path, "utf8").split("\n");
    writeFileSync(path, `${head}\n{"block":`);
    expect(await start(projectRoot, home)).toEqual({ events: ["git status now"], context: first.context });
    writeFileSync(join(projectRoot, "retry_budget.py"), "# count the retries\n");
    const changed = await start(projectRoot, home);
    expect(changed.events).toEqual(["git status now"]);
    expect(changed.context).toBe((await start(projectRoot, join(home, "other"))).context);
  });

  it("starts git once when the index is worked out again after git started (its cache lost)", async () => {
    const { projectRoot, home } = setup();
    await start(projectRoot, home);
    const path = injectionCachePath(join(home, ".claude/iflow/memory"), projectRoot);
    rmSync(rankingCachePath(path));
    rmSync(planCachePath(path));
    expect((await start(projectRoot, home)).events).toEqual(["git status", "prepare"]);
  });

  it("after a learning appended, starts git before growing the injection made before it; where that cannot be grown, starts it once", async () => {
    const { projectRoot, home } = setup();
    const bank = join(projectRoot, "docs/knowledge-bank");
    cpSync(join(CORPORA_DIR, "iflow-kb-2026-04/docs/knowledge-bank"), bank, { recursive: true });
    // On a branch whose name relevance ranks by (on main with nothing else, it abstains: today's plan is the one injected).
    execFileSync("git", ["checkout", "-q", "-b", "fix/retry-budget-timeouts"], { cwd: projectRoot });
    // Settled (the files' caches go by the real clock): what is read of them is kept.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    // With no background refresh, the hook caches the injection and its ranking (with what grows it) itself.
    expect((await start(projectRoot, home, "startup", true)).events).toEqual(["git status", "prepare"]);
    appendFileSync(join(bank, "heuristics.md"), "\n### Heuristic: Count the Retries First\nBefore raising a timeout, count the retries the queue makes.\n- Observation count: 1\n");
    // Ranked for its signals: today's plan of the grown injection is never worked out.
    const grown = await start(projectRoot, home, "startup", true);
    expect(grown.events).toEqual(["git status", "grow"]);
    // What a start that reads the files gives (another store, nothing cached).
    expect(grown.context).toBe((await start(projectRoot, join(home, "other"))).context);

    // Changed before its end: grown it cannot be; the files are read, git started once.
    const heuristics = readFileSync(join(bank, "heuristics.md"), "utf8");
    writeFileSync(join(bank, "heuristics.md"), heuristics.replace("### Line Budget Management", "### Line Budget Management, Kept"));
    const read = await start(projectRoot, home, "startup", true);
    expect(read.events).toEqual(["git status", "grow", "prepare"]);
    expect(read.context).toBe((await start(projectRoot, join(home, "another"))).context);
  });

  it("reads an earlier injection whose config is damaged as a config not known: git after the files, the memory given", async () => {
    const { projectRoot, home } = setup("memory_injection_limit: 5");
    await start(projectRoot, home);
    const path = injectionCachePath(join(home, ".claude/iflow/memory"), projectRoot);
    // The injection without today's plan, then today's plan on a line of its own.
    const [head, plan] = readFileSync(path, "utf8").split("\n");
    const cached = JSON.parse(head!) as { injection: { config: Record<string, unknown> } };
    cached.injection.config.injectionEvents = 7;
    writeFileSync(path, `${JSON.stringify(cached)}\n${plan}`);
    writeFileSync(join(projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit very often.\n");
    const after = await start(projectRoot, home);
    expect(after.events).toEqual(["prepare", "git status"]);
    expect(after.context).toContain("Commit very often.");
  });

  it.skipIf(process.platform === "win32")("stops the git it started when working the files out fails: nothing of it outlives the hook", async () => {
    const { projectRoot, home } = setup();
    const fake = slowFakeGit();
    let stderr = "";
    const io: HookIO = {
      prepare: async () => {
        // The fake git has started its sleep by now.
        await fake.started(2);
        throw new Error("the disk is gone");
      },
      spawn,
      stdin: (async function* () {
        yield JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: projectRoot });
      })(),
      stdout: { write: (_text: string, callback?: () => void) => (callback?.(), true) },
      stderr: { write: (text: string) => ((stderr += text), true) },
      env: { HOME: home, PATH: `${fake.path}${delimiter}${process.env.PATH ?? ""}` },
      cwd: projectRoot,
      now: () => new Date(Date.now() + 60_000),
    };
    expect(await runSessionStartHook(io)).toBe(0);
    expect(stderr).toContain("the disk is gone");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = await fake.started(2);
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(started.filter((pid) => isRunning(pid))).toEqual([]);
  });

  it("starts no git for a config that does not rank, nor for an event the config does not inject at", async () => {
    const original = setup("memory_injection_ranking: original");
    await start(original.projectRoot, original.home);
    writeFileSync(join(original.projectRoot, "docs/knowledge-bank/patterns.md"), "### Pattern: Small Steps\nCommit very often.\n");
    expect((await start(original.projectRoot, original.home)).events).toEqual(["prepare"]);

    const defaults = setup();
    expect(await start(defaults.projectRoot, defaults.home, "compact")).toEqual({ events: ["prepare"], context: null });
  });
});
