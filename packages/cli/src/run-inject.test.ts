import fs, { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { copyCorpus, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it, vi } from "vitest";
import * as injectModule from "./inject-command.js";
import { run } from "./run.js";
import { keepInjected, runInject } from "./run-inject.js";

const NOW = () => new Date("2026-11-25T10:00:00Z");

/** A project copied from the real bank, a home store with room for the cache, and a clock past the files' settling time. */
function setup() {
  const project = copyCorpus("iflow-kb-2026-04");
  const store = copyCorpus("global-store-example");
  const home = join(makeTempDir(), "memory");
  mkdirSync(home, { recursive: true });
  return { project, store, home, args: ["inject", "--project-root", project, "--global-store", store, "--no-tracking"] };
}

async function inject(args: string[], home: string, salt = "1.0.0", loaded: string[] = [], options: { grow?: boolean; keepAside?: () => void } = {}) {
  let stdout = "";
  let stderr = "";
  const io = { argv: args, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: { IFLOW_MEMORY_HOME: home }, cwd: "/", now: NOW };
  const load = async () => {
    loaded.push("inject-command");
    return injectModule;
  };
  const loadGrow = async () => {
    loaded.push("inject-grow");
    return import("./inject-grow.js");
  };
  const code = await runInject(io, { salt }, load, options.grow === false ? undefined : loadGrow, options.keepAside);
  return { code, stdout, stderr };
}

async function commander(args: string[], home: string) {
  let stdout = "";
  let stderr = "";
  const code = await run({ argv: args, stdin: process.stdin, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: { IFLOW_MEMORY_HOME: home }, cwd: "/", now: NOW });
  return { code, stdout, stderr };
}

// The files settle (SETTLE_MS) before a run's output may be saved.
const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));
// The description of the file's first entry, for a copy of it.
const copiedDescription = (text: string) => text.split("\n### ")[1]!.split("\n").slice(1).find((line) => line.trim() !== "" && !line.startsWith("- "))!;
const cacheFiles = (home: string) => readdirSync(join(home, ".cache")).filter((name) => name.startsWith("inject-"));

describe("runInject", () => {
  it("prints what the commander command prints, then the same again from its saved output without reading the files", async () => {
    const { home, args } = setup();
    await settle();
    const expected = await commander(args, home);
    const loaded: string[] = [];
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(expected);
    expect(cacheFiles(home)).toHaveLength(1);
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(expected);
    expect(loaded).toEqual(["inject-command"]);
  }, 15_000);

  it("keeps the files' entries in the user's store, and prints the same from them after an edit of one", async () => {
    const { project, home, args } = setup();
    await settle();
    await inject(args, home);
    expect(readdirSync(join(home, ".cache/files"))).toHaveLength(6);
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Parse only what changed\nA file unchanged since it was read is not parsed again.\n- Observation count: 9\n");
    const expected = await commander([...args, "--verbose"], home);
    expect(expected.stdout).toContain("Parse only what changed");
    expect(await inject([...args, "--verbose"], home)).toEqual(expected);
  }, 15_000);

  it("reads the memory files and their caches in its own thread: not one of them stated, opened or read through libuv's threads", async () => {
    const { project, store, home, args } = setup();
    await settle();
    await inject(args, home);
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Read in the thread that waits\nA command that exits after reading gains nothing from reading elsewhere.\n- Observation count: 9\n");
    // node:fs's asynchronous calls, spied on where the store's named imports of node:fs see them.
    const spies = (["stat", "open", "read", "fstat", "readFile"] as const).map((name) => ({ name, spy: vi.spyOn(fs, name) }));
    syncBuiltinESMExports();
    let calls: string[];
    try {
      const result = await inject(args, home);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Read in the thread that waits");
    } finally {
      calls = spies.flatMap(({ name, spy }) => spy.mock.calls.map(([first]) => `${name} ${String(first)}`));
      for (const { spy } of spies) spy.mockRestore();
      syncBuiltinESMExports();
    }
    expect(calls.filter((call) => [project, store, home].some((folder) => call.includes(folder)) || /^(read|fstat) /.test(call))).toEqual([]);
  }, 15_000);

  it("makes no store to keep a cache in", async () => {
    const { home, args } = setup();
    const missing = join(home, "not-there");
    await settle();
    expect((await inject(args, missing)).code).toBe(0);
    expect(() => readdirSync(missing)).toThrow();
  }, 15_000);

  it("works the output out anew when a file changed since it was saved (stale)", async () => {
    const { project, home, args } = setup();
    await settle();
    await inject(args, home);
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Cache keys name every input\nA cache keyed by less than its inputs prints yesterday's answer.\n- Observation count: 9\n");
    const expected = await commander(args, home);
    expect(expected.stdout).toContain("Cache keys name every input");
    expect(await inject(args, home)).toEqual(expected);
  }, 15_000);

  it("prints the output saved before learnings were appended, without the files or inject's module, while they leave it as it is", async () => {
    const { project, home, args } = setup();
    const heuristics = join(project, "docs/knowledge-bank/heuristics.md");
    await settle();
    await inject(args, home);
    // A learning seen once, then (settled, saved again) another and a copy of it: none shown, as the command works out from the files.
    appendFileSync(heuristics, "\n### Heuristic: Name the retry budget\nCheck the retry budget before raising a timeout.\n- Observation count: 1\n");
    const expected = await commander(args, home);
    expect(expected.stdout).not.toContain("Name the retry budget");
    const loaded: string[] = [];
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(expected);
    expect(loaded).toEqual(["inject-grow"]);
    await settle();
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(expected);
    appendFileSync(heuristics, "\n### Heuristic: Time out the embedding call\nGive every embedding call a timeout.\n- Observation count: 1\n- Confidence: low\n\n### Heuristic: Time out the embedding call again\nGive every embedding call a timeout.\n- Observation count: 1\n");
    const again = await commander(args, home);
    expect(again).toEqual(expected);
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(again);
    expect(loaded).toEqual(["inject-grow", "inject-grow", "inject-grow"]);
    // Unchanged since: the output saved when the files had settled, as it is.
    await settle();
    await inject(args, home, "1.0.0", loaded);
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(expected);
    expect(loaded).toHaveLength(4);
  }, 30_000);

  it("works the output out anew when an appended learning may be shown, or the file changed otherwise", async () => {
    const { project, home, args } = setup();
    const heuristics = join(project, "docs/knowledge-bank/heuristics.md");
    const cases: Array<[string, (text: string) => string, string | null]> = [
      ["seen often", (text) => `${text}\n### Heuristic: Check the lock first\nA lock held by a dead process blocks every writer.\n- Observation count: 9\n`, "Check the lock first"],
      ["a copy seen more often than the one before it", (text) => `${text}\n### Heuristic: A copy\n${copiedDescription(text)}\n- Observation count: 99\n`, null],
      ["holding a secret", (text) => `${text}\n### Heuristic: Rotate the key\nThe key ghp_0123456789abcdefghijklmnopqrstuvwxyz01 was pasted here.\n- Observation count: 1\n`, null],
      ["the file changed before its end", (text) => text.replace("Observation count: 1\n", "Observation count: 7\n"), null],
      ["its last entry grown", (text) => `${text}- Tags: retries\n`, null],
    ];
    await settle();
    await inject(args, home);
    const original = readFileSync(heuristics, "utf8");
    for (const [name, edit, shown] of cases) {
      writeFileSync(heuristics, edit(original));
      const expected = await commander(args, home);
      if (shown !== null) expect(expected.stdout, name).toContain(shown);
      const loaded: string[] = [];
      expect(await inject(args, home, "1.0.0", loaded), name).toEqual(expected);
      expect(loaded.at(-1), name).toBe("inject-command");
      writeFileSync(heuristics, original);
    }
  }, 30_000);

  it("never parses a stale output saved without a growth (one no later run can grow: --limit -1)", async () => {
    const { project, home, args } = setup();
    await settle();
    await inject([...args, "--limit=-1"], home);
    const saved = readFileSync(join(home, ".cache", cacheFiles(home)[0]!), "utf8");
    expect(saved).not.toContain(`,"growth":{`);
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Everything is shown\nWith no limit, every learning is.\n- Observation count: 1\n");
    const parse = vi.spyOn(JSON, "parse");
    const loaded: string[] = [];
    try {
      await inject([...args, "--limit=-1"], home, "1.0.0", loaded);
      expect(parse.mock.calls.filter(([text]) => typeof text === "string" && text.startsWith('{"key":')).length).toBe(0);
      expect(loaded).toEqual(["inject-command"]);
    } finally {
      parse.mockRestore();
    }
  }, 15_000);

  it("tells a stale saved output by its key alone, without parsing it, where it could not grow it", async () => {
    const { project, home, args } = setup();
    await settle();
    await inject(args, home, "1.0.0", [], { grow: false });
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Compare the key before the rest\nA stale answer is told by its key.\n- Observation count: 2\n");
    const parse = vi.spyOn(JSON, "parse");
    try {
      await inject(args, home, "1.0.0", [], { grow: false });
      expect(parse.mock.calls.filter(([text]) => typeof text === "string" && text.startsWith('{"key":')).length).toBe(0);
    } finally {
      parse.mockRestore();
    }
  }, 15_000);

  it("prints its saved output again for a project whose path is not ASCII (the key as it was saved, in ASCII)", async () => {
    const { project, store, home } = setup();
    const other = join(makeTempDir(), "Übung — ü");
    cpSync(project, other, { recursive: true });
    await settle();
    const args = ["inject", "--project-root", other, "--global-store", store, "--no-tracking"];
    const loaded: string[] = [];
    const first = await inject(args, home, "1.0.0", loaded);
    expect(first.stdout).toContain("## Engineering Memory");
    expect(readFileSync(join(home, ".cache", cacheFiles(home)[0] ?? ""), "latin1")).toMatch(/^[\x00-\x7f]*$/);
    expect(await inject(args, home, "1.0.0", loaded)).toEqual(first);
    expect(loaded).toEqual(["inject-command"]);
  }, 15_000);

  it("works the output out anew from a damaged cache file, and saves it again", async () => {
    const { home, args } = setup();
    await settle();
    const expected = await commander(args, home);
    await inject(args, home);
    const path = join(home, ".cache", cacheFiles(home)[0] ?? "");
    for (const damage of ["", "{", '{"key":1}', readFileSync(path, "utf8").replace(/"stdout":"/, '"stdout":7,"x":"')]) {
      writeFileSync(path, damage);
      const loaded: string[] = [];
      expect(await inject(args, home, "1.0.0", loaded)).toEqual(expected);
      expect(loaded).toEqual(["inject-command"]);
    }
    expect(JSON.parse(readFileSync(path, "utf8")).output.stdout).toBe(expected.stdout);
  }, 15_000);

  it("does not print an output saved by another version or build", async () => {
    const { home, args } = setup();
    await settle();
    await inject(args, home, "0.9.0");
    const loaded: string[] = [];
    await inject(args, home, "1.0.0", loaded);
    expect(loaded).toEqual(["inject-command"]);
  }, 15_000);

  it("keeps an output per build: two installs called in turn each print their own saved output", async () => {
    const { home, args } = setup();
    await settle();
    const expected = await commander(args, home);
    const loaded: string[] = [];
    for (const salt of ["package", "plugin", "package", "plugin"]) expect(await inject(args, home, salt, loaded)).toEqual(expected);
    expect(loaded).toEqual(["inject-command", "inject-command"]);
    expect(cacheFiles(home)).toHaveLength(2);
  }, 15_000);

  it("keys the output by its options: --json and --limit are saved apart", async () => {
    const { home, args } = setup();
    await settle();
    for (const extra of [[], ["--json"], ["--limit", "3"], ["--ignore-config"]]) {
      expect(await inject([...args, ...extra], home)).toEqual(await commander([...args, ...extra], home));
    }
    for (const extra of [[], ["--json"], ["--limit", "3"], ["--ignore-config"]]) {
      expect(await inject([...args, ...extra], home)).toEqual(await commander([...args, ...extra], home));
    }
    expect(cacheFiles(home)).toHaveLength(4);
  }, 30_000);

  it("writes the tracking file on every run, from a saved output too", async () => {
    const { store, home, args } = setup();
    const tracked = args.filter((arg) => arg !== "--no-tracking");
    await settle();
    await commander(tracked, home);
    const expected = readFileSync(join(store, ".last-injection.json"), "utf8");
    writeFileSync(join(store, ".last-injection.json"), "");
    await inject(tracked, home);
    writeFileSync(join(store, ".last-injection.json"), "");
    const loaded: string[] = [];
    await inject(tracked, home, "1.0.0", loaded);
    expect({ loaded, tracking: readFileSync(join(store, ".last-injection.json"), "utf8") }).toEqual({ loaded: [], tracking: expected });
  }, 15_000);

  it("reports a missing project as the command does, with nothing saved", async () => {
    const { home } = setup();
    const args = ["inject", "--project-root", join(makeTempDir(), "gone"), "--no-tracking"];
    expect(await inject(args, home)).toEqual(await commander(args, home));
    expect(readdirSync(home)).toEqual([]);
  });

  it("leaves keeping the files to the process it starts once the output is printed and saved (with its growth), which keeps them", async () => {
    const { project, home, args } = setup();
    const keptFiles = () => (fs.existsSync(join(home, ".cache/files")) ? readdirSync(join(home, ".cache/files")) : []);
    const saved = () => readFileSync(join(home, ".cache", cacheFiles(home)[0]!), "utf8");
    await settle();
    // Worked out with no cache (the commander command keeps the files it reads, where the home has a store).
    const expected = await commander(args, join(makeTempDir(), "none"));
    const starts: Array<{ kept: number; saved: number }> = [];
    expect(await inject(args, home, "1.0.0", [], { keepAside: () => starts.push({ kept: keptFiles().length, saved: cacheFiles(home).length }) })).toEqual(expected);
    // Started once, after the output was saved; nothing kept.
    expect(starts).toEqual([{ kept: 0, saved: 1 }]);
    expect(keptFiles()).toEqual([]);
    // What the started process does, here in this process: every file kept, the same output saved again; nothing printed.
    const first = saved();
    expect(first).toContain(`,"growth":{`);
    expect(await keepInjected({ argv: args, cwd: "/", env: { IFLOW_MEMORY_HOME: home } }, { salt: "1.0.0" }, async () => injectModule)).toBe(0);
    expect([keptFiles().length, saved()]).toEqual([6, first]);
  }, 30_000);

  it("saves, with files it left unkept, an output that a run after learnings were appended reads them alone for", async () => {
    const { project, home, args } = setup();
    await settle();
    let starts = 0;
    await inject(args, home, "1.0.0", [], { keepAside: () => starts++ });
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Keep what was read aside\nA command prints first, and keeps later.\n- Observation count: 1\n");
    const loaded: string[] = [];
    expect(await inject(args, home, "1.0.0", loaded, { keepAside: () => starts++ })).toEqual(await commander(args, join(makeTempDir(), "none")));
    expect([loaded, starts]).toEqual([["inject-grow"], 1]);
  }, 30_000);

  it("starts no keeping process where every file it read was kept already, or is too young to keep", async () => {
    const { project, home, args } = setup();
    await settle();
    await inject(args, home);
    let starts = 0;
    const keepAside = () => starts++;
    // Another option (its own saved output): worked out from the files' caches.
    const loaded: string[] = [];
    expect(await inject([...args, "--json"], home, "1.0.0", loaded, { keepAside })).toEqual(await commander([...args, "--json"], home));
    // A learning shown, right after it was written: that file read anew, but not to be kept yet.
    appendFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "\n### Heuristic: Keep only what settled\nA file written a moment ago may be written again within the same tick.\n- Observation count: 9\n");
    expect(await inject(args, home, "1.0.0", loaded, { keepAside })).toEqual(await commander(args, home));
    expect([loaded, starts]).toEqual([["inject-command", "inject-grow", "inject-command"], 0]);
    // Settled, it is: the process is started for it.
    await settle();
    await inject(args, home, "1.0.0", loaded, { keepAside });
    expect(starts).toBe(1);
  }, 30_000);

  it("keeps nothing and saves nothing for arguments it does not read, or a project with no memory file", async () => {
    const { home, args } = setup();
    const empty = makeTempDir();
    for (const argv of [["inject", "--bogus"], ["list"], ["inject", "--project-root", empty, "--no-tracking"]]) {
      expect(await keepInjected({ argv, cwd: "/", env: { IFLOW_MEMORY_HOME: home } }, { salt: "1.0.0" }, async () => injectModule)).toBe(0);
    }
    expect(readdirSync(home)).toEqual([]);
    expect(await keepInjected({ argv: args, cwd: "/", env: { IFLOW_MEMORY_HOME: join(home, "not-there") } }, { salt: "1.0.0" }, async () => injectModule)).toBe(0);
    expect(readdirSync(home)).toEqual([]);
  });

  it("leaves what it does not read to commander", async () => {
    const { home } = setup();
    expect(await inject(["inject", "--limit", "-1"], home)).toEqual({ code: null, stdout: "", stderr: "" });
    expect(await inject(["list"], home)).toEqual({ code: null, stdout: "", stderr: "" });
  });
});
