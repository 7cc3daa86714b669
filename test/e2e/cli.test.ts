import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeCacheFile } from "@iflow-memory/store";
import { CLI_BIN, copyCorpus, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

const DEMO = join(REPO_ROOT, "examples/demo-project");
const DEMO_STORE = join(REPO_ROOT, "examples/demo-global-store");
const cli = (args: string[], env: Record<string, string> = {}) => runNode(CLI_BIN, args, { env: { HOME: makeTempDir(), ...env } });

// Until `done()`, or 30 seconds (a process started in the background, on a loaded machine).
async function waitFor(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe("iflow-memory, as a user runs it", () => {
  it("prints its version and its help, exit 0", async () => {
    const { version } = (await import(join(REPO_ROOT, "packages/cli/package.json"), { with: { type: "json" } })).default as { version: string };
    expect(await cli(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = await cli(["--help"]);
    expect([help.code, help.stdout.startsWith("Usage: iflow-memory [options] [command]"), help.stdout.includes("inject")]).toEqual([0, true, true]);
    const injectHelp = await cli(["inject", "--help"]);
    expect([injectHelp.code, injectHelp.stdout.includes("--max-chars <n>")]).toEqual([0, true]);
  });

  it("exits 2 with one line on stderr for an unknown command, an unknown flag and a bad --limit", async () => {
    const results = await Promise.all([["frobnicate"], ["inject", "--bogus"], ["inject", "--limit", "x"], ["inject", "--limit", "-2"], ["inject", "--max-chars", "0"]].map((args) => cli(args)));
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^iflow-memory: [^\n]+ \(see iflow-memory --help\)\n$/);
    }
  });

  it("exits 1 with one line when the project root does not exist or is a file", async () => {
    const base = makeTempDir();
    writeFileSync(join(base, "file"), "x");
    const missing = await cli(["inject", "--project-root", join(base, "missing")]);
    const file = await cli(["inject", "--project-root", join(base, "file")]);
    expect([missing.code, missing.stderr]).toEqual([1, `iflow-memory: cannot read project root ${join(base, "missing")}: no such directory; pass an existing --project-root\n`]);
    expect([file.code, file.stderr]).toEqual([1, `iflow-memory: cannot use project root ${join(base, "file")}: it is a file, not a directory; pass the project's folder\n`]);
  });

  it("prints a block of megabytes whole to a reader that reads slowly, and stops without a word when the reader quits", async () => {
    const root = join(makeTempDir(), "big");
    mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
    const entries = Array.from({ length: 3000 }, (_, at) => `### Pattern: Entry ${at}\n${"Write the state file atomically, then rename it. ".repeat(20)}${at}\n`);
    writeFileSync(join(root, "docs/knowledge-bank/patterns.md"), entries.join("\n"));
    const args = [CLI_BIN, "inject", "--project-root", root, "--global-store", join(root, "none"), "--limit", "-1", "--no-tracking"];
    const env = { PATH: process.env.PATH ?? "", HOME: makeTempDir() };
    const whole = await cli(args.slice(1), { HOME: env.HOME });
    expect([whole.code, whole.stdout.length > 3_000_000]).toEqual([0, true]);

    // A pipe read a little every few milliseconds: everything arrives, in order.
    const slow = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let received = "";
    slow.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
      slow.stdout.pause();
      setTimeout(() => slow.stdout.resume(), 2);
    });
    const slowCode = await new Promise((resolve) => slow.on("close", resolve));
    expect([slowCode, received === whole.stdout]).toEqual([0, true]);

    // A reader that quits after its first chunk (as `| head -1`): exit 0, nothing on stderr.
    const quitting = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    quitting.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    quitting.stdout.once("data", () => quitting.stdout.destroy());
    const quitCode = await new Promise((resolve) => quitting.on("close", resolve));
    expect([quitCode, stderr]).toEqual([0, ""]);
  });

  it("keeps V8's code cache of inject in the user's store, and prints the same with it, without it and with a damaged one; makes no store for it", async () => {
    const home = makeTempDir();
    const store = join(home, ".claude/iflow/memory");
    const args = ["inject", "--project-root", DEMO, "--global-store", DEMO_STORE, "--no-tracking", "--limit", "3"];
    // With no store of the user's: no cache, nothing made.
    const plain = await cli(args, { HOME: home });
    expect([plain.code, existsSync(store)]).toEqual([0, false]);
    mkdirSync(store, { recursive: true });
    const cache = codeCacheFile(join(store, ".cache"), join(REPO_ROOT, "packages/cli/dist/inject.cjs"));
    const outputs = [];
    for (const before of [
      () => undefined,
      () => undefined, // from the code cache (the saved output goes each time: inject.cjs runs)
      () => writeFileSync(cache, "iflow-memory code cache 1\n{}\n garbage"),
      () => rmSync(cache),
    ]) {
      const saved = existsSync(join(store, ".cache")) ? readdirSync(join(store, ".cache")).filter((name) => name.startsWith("inject-")) : [];
      for (const name of saved) rmSync(join(store, ".cache", name));
      before();
      const result = await cli(args, { HOME: home });
      outputs.push([result.code, result.stdout, result.stderr]);
      // Written as the run exits, or, by the first run (the files read anew, none kept), by the process it started to keep them.
      await waitFor(() => existsSync(cache));
      expect([existsSync(cache), statSync(cache).mode & 0o777, statSync(cache).mtimeMs < Date.parse("2018-01-01")]).toEqual([true, 0o600, true]);
    }
    expect(outputs).toEqual(outputs.map(() => [0, plain.stdout, ""]));
  });

  it("inject prints, then leaves keeping what it read to a process it starts: the files' caches, its code cache, its output's growth", async () => {
    const home = makeTempDir();
    const store = join(home, ".claude/iflow/memory");
    mkdirSync(store, { recursive: true });
    const project = copyCorpus("iflow-kb-2026-04");
    const args = ["inject", "--project-root", project, "--global-store", join(REPO_ROOT, "test/fixtures/corpora/global-store-example"), "--no-tracking"];
    // The copied files settle before any of them is kept.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const cacheDir = join(store, ".cache");
    const kept = () => (existsSync(join(cacheDir, "files")) ? readdirSync(join(cacheDir, "files")).filter((name) => name.endsWith(".json")).length : 0);
    const saved = () => readdirSync(cacheDir).filter((name) => name.startsWith("inject-")).map((name) => readFileSync(join(cacheDir, name), "utf8"));
    const first = await cli(args, { HOME: home });
    const ended = Date.now();
    expect([first.code, first.stderr, first.stdout.startsWith("## Engineering Memory")]).toEqual([0, "", true]);
    const codeCache = codeCacheFile(cacheDir, join(REPO_ROOT, "packages/cli/dist/inject.cjs"));
    await waitFor(() => kept() === 6 && saved().some((text) => text.includes(`,"growth":{`)) && existsSync(codeCache));
    expect([kept(), saved().length, saved()[0]!.includes(`,"growth":{`), existsSync(codeCache)]).toEqual([6, 1, true, true]);
    // Kept after the command had ended, by the process it started.
    const written = readdirSync(join(cacheDir, "files")).map((name) => statSync(join(cacheDir, "files", name)).mtimeMs);
    expect(Math.min(...written)).toBeGreaterThanOrEqual(ended);
    // What it saved is printed again, and what a new home's run works out.
    expect(await cli(args, { HOME: home })).toEqual(first);
    expect(await cli(args, { HOME: makeTempDir() })).toEqual(first);
  });

  it("prints the demo's memory block, and the same selection as JSON with --json", async () => {
    const markdown = await cli(["inject", "--project-root", DEMO, "--global-store", DEMO_STORE, "--limit", "4", "--no-tracking"]);
    const json = await cli(["inject", "--project-root", DEMO, "--global-store", DEMO_STORE, "--limit", "4", "--no-tracking", "--json"]);
    const report = JSON.parse(json.stdout) as { project: string; entries: Array<{ headerLine: string; scope: string }>; sources: unknown; chars: number; droppedForBudget: number };
    expect([markdown.code, json.code, report.project, report.sources, report.chars, report.droppedForBudget]).toEqual([0, 0, "demo-project", { local: 3, global: 1 }, markdown.stdout.length, 0]);
    expect(report.entries.map((entry) => entry.headerLine).every((header) => markdown.stdout.includes(`${header}\n`))).toBe(true);
    expect(markdown.stdout).not.toContain("Webshop Tax Table");
  });

  it("keeps the block within --max-chars, dropping whole entries", async () => {
    const result = await cli(["inject", "--project-root", DEMO, "--global-store", DEMO_STORE, "--max-chars", "1200", "--no-tracking", "--json"]);
    const report = JSON.parse(result.stdout) as { chars: number; droppedForBudget: number };
    expect(report.chars).toBeLessThanOrEqual(1200);
    expect(report.droppedForBudget).toBeGreaterThan(0);
  });

  it("reads the limit and the global switch from the project's config when no flag is given", async () => {
    const base = makeTempDir();
    const root = join(base, "webshop");
    mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, "docs/knowledge-bank/patterns.md"), "### Pattern: A\na\n### Pattern: B\nb\n### Pattern: C\nc\n");
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 2\n---\n");
    const result = await cli(["inject", "--project-root", root, "--no-tracking", "--json"]);
    expect((JSON.parse(result.stdout) as { entries: unknown[] }).entries.length).toBe(2);
  });

  describe("inject and the project's config, as the hooks read it", () => {
    const BANK = Array.from({ length: 12 }, (_, index) => `### Pattern: Pattern ${index}\nPattern ${index} has a long description. ${"It says a lot. ".repeat(12)}\n- Confidence: high\n`).join("\n");
    const project = (config: string | null) => {
      const root = join(makeTempDir(), "webshop");
      mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
      writeFileSync(join(root, "docs/knowledge-bank/patterns.md"), BANK);
      if (config !== null) {
        mkdirSync(join(root, ".claude"));
        writeFileSync(join(root, ".claude/iflow-dev.local.md"), config);
      }
      return root;
    };
    const inject = async (root: string, args: string[] = []) => {
      const store = join(makeTempDir(), "store");
      const result = await cli(["inject", "--project-root", root, "--global-store", store, ...args]);
      return { ...result, tracked: existsSync(join(store, ".last-injection.json")) };
    };

    it("keeps the block within memory_injection_max_chars, and --max-chars overrides it", async () => {
      const unbounded = await inject(project(null));
      expect(unbounded.stdout.length).toBeGreaterThan(2000);
      const root = project("---\nmemory_injection_max_chars: 1000\n---\n");
      const bounded = await inject(root);
      expect([bounded.code, bounded.stderr, bounded.stdout.length <= 1000, bounded.stdout.startsWith("## Engineering Memory (from knowledge bank)\n")]).toEqual([0, "", true, true]);
      const flagged = await inject(root, ["--max-chars", "2000"]);
      expect([flagged.stdout.length > 1000, flagged.stdout.length <= 2000]).toEqual([true, true]);
      expect((await inject(root, ["--ignore-config"])).stdout).toBe(unbounded.stdout);
    });

    it("prints nothing and tracks nothing when memory_injection_enabled is false, saying why on stderr; --ignore-config prints it anyway", async () => {
      const root = project("---\nmemory_injection_enabled: false\nmemory_injection_limit: 2\n---\n");
      const off = await inject(root);
      expect([off.code, off.stdout, off.tracked, off.stderr]).toEqual([
        0,
        "",
        false,
        `iflow-memory: memory injection is off in ${join(root, ".claude/iflow-dev.local.md")} (memory_injection_enabled: false); nothing printed. Pass --ignore-config to print it anyway.\n`,
      ]);
      const forced = await inject(root, ["--ignore-config", "--json"]);
      expect([forced.code, forced.stderr, (JSON.parse(forced.stdout) as { entries: unknown[] }).entries.length, forced.tracked]).toEqual([0, "", 12, true]);
      const limited = await inject(root, ["--ignore-config", "--limit", "3", "--json"]);
      expect((JSON.parse(limited.stdout) as { entries: unknown[] }).entries.length).toBe(3);
    });
  });

  it("writes the tracking file into the global store unless --no-tracking", async () => {
    const store = join(makeTempDir(), "store");
    await cli(["inject", "--project-root", DEMO, "--global-store", store, "--no-tracking"]);
    const { existsSync } = await import("node:fs");
    expect(existsSync(join(store, ".last-injection.json"))).toBe(false);
    await cli(["inject", "--project-root", DEMO, "--global-store", store]);
    expect(existsSync(join(store, ".last-injection.json"))).toBe(true);
  });
});
