import { spawn, spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { gitEnvironment, runGit, runGitNow, startGit } from "./run-git.js";

/** A directory whose `git` is the given shell script, first on PATH. */
function fakeGit(script: string): Record<string, string | undefined> {
  const bin = makeTempDir();
  writeFileSync(join(bin, "git"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, "git"), 0o755);
  return { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
}

describe("runGit", () => {
  it.skipIf(process.platform === "win32")("gives git's output and its arguments reach it", async () => {
    const env = fakeGit('printf "%s\\0" "$@"');
    expect(await runGit(["status", "-z"], { cwd: makeTempDir(), env, deadline: Date.now() + 5000 })).toEqual({ ok: true, stdout: "status\0-z\0", truncated: false });
  });

  it.skipIf(process.platform === "win32")("stops git once enough records or bytes have arrived", async () => {
    const env = fakeGit("while :; do printf 'record\\0'; done");
    const [byRecords, byBytes] = await Promise.all([
      runGit([], { cwd: makeTempDir(), env, deadline: Date.now() + 5000, maxRecords: 10 }),
      runGit([], { cwd: makeTempDir(), env, deadline: Date.now() + 5000, maxOutputBytes: 100 }),
    ]);
    expect([byRecords.ok && byRecords.truncated && byRecords.stdout.split("\0").length > 10, byBytes.ok && byBytes.truncated && byBytes.stdout.length >= 100]).toEqual([true, true]);
  });

  it("answers timeout without spawning when no time is left, and missing when git is not on PATH", async () => {
    expect([
      await runGit(["status"], { cwd: makeTempDir(), env: process.env, deadline: Date.now() - 1 }),
      await runGit(["status"], { cwd: makeTempDir(), env: { PATH: makeTempDir() }, deadline: Date.now() + 5000 }),
    ]).toEqual([
      { ok: false, reason: "timeout", message: "no time left" },
      { ok: false, reason: "missing", message: "git is not on PATH" },
    ]);
  });
});

describe("startGit", () => {
  it.skipIf(process.platform === "win32")("starts git at once, and answers from a git done before the wait whatever time was spent meanwhile", async () => {
    const env = fakeGit('printf "%s\\0" "$@"');
    const started = startGit(["status"], { cwd: makeTempDir(), env, spawn });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    expect(await started.result(Date.now() + 50)).toEqual({ ok: true, stdout: "status\0", truncated: false });
  });

  it.skipIf(process.platform === "win32")("kills a git still running at the deadline of the wait", async () => {
    const env = fakeGit("sleep 5");
    const started = startGit(["status"], { cwd: makeTempDir(), env, spawn });
    expect(await started.result(Date.now() + 100)).toEqual({ ok: false, reason: "timeout", message: "did not answer in time" });
  });
});

describe("runGitNow", () => {
  it.skipIf(process.platform === "win32")("gives git's output and its arguments reach it, cut after maxRecords records", () => {
    const env = fakeGit('printf "%s\\0" "$@"');
    expect([
      runGitNow(["status", "-z"], { cwd: makeTempDir(), env, timeoutMs: 5000, spawnSync }),
      runGitNow(["status", "-z", "--", "a", "b"], { cwd: makeTempDir(), env, timeoutMs: 5000, spawnSync, maxRecords: 3 }),
      runGitNow(["status", "-z", "--"], { cwd: makeTempDir(), env, timeoutMs: 5000, spawnSync, maxRecords: 3 }),
    ]).toEqual([
      { ok: true, stdout: "status\0-z\0", truncated: false },
      { ok: true, stdout: "status\0-z\0--\0", truncated: true },
      { ok: true, stdout: "status\0-z\0--\0", truncated: false },
    ]);
  });

  it.skipIf(process.platform === "win32")("stops a git whose output passes maxOutputBytes, with what arrived", () => {
    const run = runGitNow([], { cwd: makeTempDir(), env: fakeGit("while :; do printf 'record\\0'; done"), timeoutMs: 5000, spawnSync, maxOutputBytes: 100 });
    expect(run.ok && run.truncated && run.stdout.length >= 100 && run.stdout.startsWith("record\0record\0")).toBe(true);
  });

  it.skipIf(process.platform === "win32")("answers timeout at its budget, also when what git started holds its pipes open", () => {
    const started = Date.now();
    const runs = [
      runGitNow(["status"], { cwd: makeTempDir(), env: fakeGit("exec sleep 5"), timeoutMs: 100, spawnSync }),
      runGitNow(["status"], { cwd: makeTempDir(), env: fakeGit("sleep 5 &\nprintf 'early\\0'"), timeoutMs: 100, spawnSync }),
    ];
    expect(runs).toEqual([
      { ok: false, reason: "timeout", message: "did not answer in time" },
      { ok: false, reason: "timeout", message: "did not answer in time" },
    ]);
    expect(Date.now() - started).toBeLessThan(4000); // not the 5 s of the sleeps
  });

  it("answers timeout without spawning when no time is left, missing when git is not on PATH, failed with git's first line", () => {
    const failing = process.platform === "win32" ? [] : [runGitNow(["status"], { cwd: makeTempDir(), env: fakeGit("echo 'fatal: not a git repository' >&2\necho more >&2\nexit 128"), timeoutMs: 5000, spawnSync })];
    expect([
      runGitNow(["status"], { cwd: makeTempDir(), env: process.env, timeoutMs: 0, spawnSync }),
      runGitNow(["status"], { cwd: makeTempDir(), env: { PATH: makeTempDir() }, timeoutMs: 5000, spawnSync }),
      ...failing,
    ]).toEqual([
      { ok: false, reason: "timeout", message: "no time left" },
      { ok: false, reason: "missing", message: "git is not on PATH" },
      ...(process.platform === "win32" ? [] : [{ ok: false, reason: "failed", message: "fatal: not a git repository" }]),
    ]);
  });
});

describe("gitEnvironment", () => {
  it("drops variables that would point git elsewhere and turns off prompts, optional locks and pagers", () => {
    expect(gitEnvironment({ PATH: "/usr/bin", GIT_DIR: "/x/.git", GIT_WORK_TREE: "/x", GIT_INDEX_FILE: "/x/i", HOME: "/home/a" })).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/a",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_TERMINAL_PROMPT: "0",
      GIT_PAGER: "cat",
      PAGER: "cat",
    });
  });
});
