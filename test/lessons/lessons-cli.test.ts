import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, CORPORA_DIR, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

function run(runId: string, findings: Array<{ severity: string; description: string; category?: string }>, archetype = "guardian"): string {
  return [
    JSON.stringify({ run_id: runId, seq: 1, type: "run.start", data: {} }),
    JSON.stringify({ run_id: runId, seq: 2, type: "review.verdict", data: { archetype, verdict: "needs_changes", findings } }),
    JSON.stringify({ run_id: runId, seq: 3, type: "run.complete", data: {} }),
  ].join("\n") + "\n";
}

// Forty distinct words: no two unique findings share a keyword.
const WORDS = "cache retry schema token index query deploy branch fixture budget parser worktree logger router mailer queue socket cursor plugin locale".split(" ");
const MORE_WORDS = "stale flaky leaked dangling broken unbounded racy blocking silent wrong slow orphaned duplicated truncated nested circular expired unsorted partial hidden".split(" ");

function project(): string {
  const root = makeTempDir();
  mkdirSync(join(root, ".archeflow/events"), { recursive: true });
  return root;
}

const lessons = (root: string, args: string[]) => runNode(CLI_BIN, ["lessons", ...args], { cwd: root, env: { HOME: root } });

describe("iflow-memory lessons, from events to an injected prompt", () => {
  it("learns a recurring finding across runs, injects it, and audits whether it helped", async () => {
    const root = project();
    const events = (runId: string, text: string) => writeFileSync(join(root, `.archeflow/events/${runId}.jsonl`), text);
    events("run-1", readFileSync(join(CORPORA_DIR, "archeflow/memory-test-events.jsonl"), "utf8").replaceAll("test-run", "run-1"));
    events("run-2", run("run-2", [{ severity: "bug", description: "User endpoint is missing input validation", category: "code" }, { severity: "info", description: "Consider logging" }]));
    events("run-3", run("run-3", [{ severity: "warning", description: "Flaky retry loop in the uploader", category: "code" }]));

    expect((await lessons(root, ["extract", ".archeflow/events/run-1.jsonl"])).stdout).toBe("Run run-1: 1 new candidate lesson (m-001), 0 confirmed, 0 findings skipped (info or recommendation).\n");
    expect((await lessons(root, ["inject", "code"])).stdout).toBe(""); // a one-off is only a candidate
    expect((await lessons(root, ["extract", ".archeflow/events/run-2.jsonl"])).stdout).toBe("Run run-2: 0 new candidate lessons, 1 confirmed (m-001), 1 finding skipped (info or recommendation).\n");
    expect((await lessons(root, ["decay", "--run-id", "run-2"])).stdout).toBe("Decay after run run-2: 0 lessons aged, none archived.\n");

    const injected = await lessons(root, ["inject", "code", "guardian", "--audit", "run-3"]);
    expect(injected).toMatchObject({ code: 0, stdout: "## Known Issues (from past runs)\n- Missing input validation on user endpoint [seen 2x, guardian]\n", stderr: "" });

    const check = await lessons(root, ["audit-check", "run-3"]);
    expect(check.stdout).toBe("m-001  helpful  (0% keyword overlap)  Missing input validation on user endpoint\n");
    expect((await lessons(root, ["audit-check", "run-3"])).stdout).toBe("Already checked for run run-3: m-001.\n");
    const summary = JSON.parse((await lessons(root, ["effectiveness", "--json"])).stdout) as { helpful: number; ineffective: number; ratio: number };
    expect(summary).toMatchObject({ helpful: 1, ineffective: 0, ratio: 1 });

    const list = await lessons(root, ["list"]);
    expect(list.stdout).toBe("ID     Freq  Type     Domain  Description\nm-001  2     pattern  code    Missing input validation on user endpoint\n");
  });

  it("exits 1 with one line for an unknown lesson or a missing events file, and 2 for a bad type", async () => {
    const root = project();
    const forget = await lessons(root, ["forget", "m-042"]);
    const extract = await lessons(root, ["extract", "nope.jsonl"]);
    const add = await lessons(root, ["add", "x", "--type", "rumour"]);
    expect([forget.code, forget.stderr.split("\n").length, extract.code, add.code]).toEqual([1, 2, 1, 2]);
    expect(extract.stderr).toMatch(/^iflow-memory: cannot read events .*nope\.jsonl: no such file; pass the run's events JSONL/);
  });

  it("keeps every update when four processes extract different runs into one directory at once", async () => {
    const root = project();
    const runs = Array.from({ length: 4 }, (_, index) => `run-${index + 1}`);
    for (const [index, runId] of runs.entries()) {
      writeFileSync(
        join(root, `.archeflow/events/${runId}.jsonl`),
        run(runId, [
          { severity: "warning", description: "Shared finding about missing input validation on the user endpoint", category: "code" },
          ...Array.from({ length: 5 }, (_, k) => ({ severity: "bug", description: `${WORDS[index * 5 + k]} ${MORE_WORDS[index * 5 + k]}`, category: "code" })),
        ]),
      );
    }
    const codes = await Promise.all(
      runs.map(
        (runId) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, [CLI_BIN, "lessons", "extract", `.archeflow/events/${runId}.jsonl`], { cwd: root, stdio: "ignore" });
            child.on("close", resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    const lines = readFileSync(join(root, ".archeflow/memory/lessons.jsonl"), "utf8").trim().split("\n");
    const parsed = lines.map((line) => JSON.parse(line) as { id: string; frequency: number; description: string });
    const ids = parsed.map((lesson) => lesson.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(parsed.length).toBe(1 + 4 * 5);
    expect(parsed.find((lesson) => lesson.description.startsWith("Shared finding"))!.frequency).toBe(4);
    expect([...ids].sort()).toEqual(Array.from({ length: 21 }, (_, index) => `m-${String(index + 1).padStart(3, "0")}`));
  });
});

describe("iflow-memory lessons, from a subfolder", () => {
  it("finds the project root like every other command, so a subfolder never starts a second store", async () => {
    const root = makeTempDir();
    mkdirSync(join(root, ".git"));
    mkdirSync(join(root, "src/cart"), { recursive: true });
    mkdirSync(join(root, "docs"));
    expect((await lessons(join(root, "src/cart"), ["add", "Always run the migrations in a transaction"])).code).toBe(0);
    expect(readFileSync(join(root, ".archeflow/memory/lessons.jsonl"), "utf8")).toContain("Always run the migrations in a transaction");
    const listed = await lessons(join(root, "docs"), ["list", "--json"]);
    expect((JSON.parse(listed.stdout) as Array<{ description: string }>).map((lesson) => lesson.description)).toEqual(["Always run the migrations in a transaction"]);
  });
});
