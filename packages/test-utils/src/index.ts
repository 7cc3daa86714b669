import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** `../shared` beside the repository: corpora and golden files. */
export const SHARED_DIR = resolve(REPO_ROOT, "../shared");
export const CORPORA_DIR = join(SHARED_DIR, "corpora");
export const GOLDEN_DIR = join(SHARED_DIR, "golden");

/** The built command and hook, as a user runs them. */
export const CLI_BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
export const HOOK_BIN = join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs");

const created: string[] = [];
afterEach(() => {
  for (const directory of created.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the current test. */
export function makeTempDir(prefix = "iflow-memory-test-"): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  created.push(directory);
  return directory;
}

/** A copy of a corpus folder in a temporary directory (tests must never write into shared/). */
export function copyCorpus(name: string, into = makeTempDir()): string {
  const target = join(into, name);
  cpSync(join(CORPORA_DIR, name), target, { recursive: true });
  return target;
}

/** Removes the common indentation of a template literal and its first newline. */
export function dedent(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce((all, part, index) => all + part + (index < values.length ? String(values[index]) : ""), "");
  const lines = text.replace(/^\n/, "").split("\n");
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(indent)).join("\n").replace(/[ ]+$/, "");
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
  options: { stdin?: string | null | { descriptor: number }; env?: Record<string, string>; cwd?: string; timeoutMs?: number; nodeOptions?: string[] } = {},
): Promise<SpawnResult> {
  return new Promise((resolvePromise, reject) => {
    const stdin = options.stdin;
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), script, ...args], {
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
