import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { gatherSessionSignals } from "./gather-session-signals.js";

const run = promisify(execFile);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "test@example.com" };

// Asynchronous, so that the test worker keeps answering vitest while the files are made.
async function git(cwd: string, ...args: string[]): Promise<void> {
  await run("git", ["-c", "commit.gpgsign=false", ...args], { cwd, env: GIT_ENV });
}

// 400 folders of 250 files, written by one node process; one content, so git stores one blob.
const MAKE_FILES = `
const { mkdirSync, writeFileSync } = require("node:fs");
for (let folder = 0; folder < 400; folder += 1) {
  mkdirSync("src/module" + folder, { recursive: true });
  for (let file = 0; file < 250; file += 1) writeFileSync("src/module" + folder + "/file" + file + ".txt", "x\\n");
}`;

describe("gatherSessionSignals", () => {
  it("answers on a repository of 100,000 files within its default budget, or says what it skipped", async () => {
    // In memory where there is a tmpfs: 100,000 files on a busy disk take minutes to write.
    const base = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/iflow-memory-test-") : makeTempDir();
    try {
      const root = join(base, "huge");
      await run("git", ["init", "-q", "-b", "main", root]);
      await run(process.execPath, ["-e", MAKE_FILES], { cwd: root });
      await git(root, "add", "-A");
      await git(root, "commit", "-q", "-m", "One hundred thousand files");
      await git(root, "checkout", "-q", "-b", "fix/embedding-call-timeouts");
      writeFileSync(join(root, "src/module7/file7.txt"), "committed change\n");
      await git(root, "commit", "-q", "-am", "Time out embedding calls");
      writeFileSync(join(root, "src/module3/file3.txt"), "working change\n");
      await git(root, "status"); // a first status refreshes the index's stat data, as a user's shell would have

      const signals = await gatherSessionSignals({ projectRoot: root });

      // On a loaded machine git may not stat 100,000 files in 200 ms: then the signal is skipped, and said so.
      const statusAnswered = !signals.skipped.some((line) => line.startsWith("git status"));
      const logAnswered = !signals.skipped.some((line) => line.startsWith("git log"));
      expect(signals).toEqual({
        project: "huge",
        branch: "fix/embedding-call-timeouts",
        changedFiles: [...(statusAnswered ? ["src/module3/file3.txt"] : []), ...(logAnswered ? ["src/module7/file7.txt"] : [])],
        commitSubjects: logAnswered ? ["Time out embedding calls"] : [],
        feature: null,
        stack: [],
        skipped: [
          ...(statusAnswered ? [] : ["git status did not answer within 200 ms; changed files skipped"]),
          ...(logAnswered ? [] : ["git log did not answer within 200 ms; commit subjects and the branch's committed files skipped"]),
        ],
      });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
