import { chmodSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, CORPORA_DIR, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// Every command that changes something says what it did as JSON with --json, for scripts and
// other iflow tooling: one JSON document on stdout, exit 0.

function workspace() {
  const base = makeTempDir();
  const home = join(base, "home");
  mkdirSync(home);
  const projectRoot = copyCorpus("iflow-kb-2026-04", base);
  mkdirSync(join(projectRoot, ".git"));
  const store = join(base, "store");
  cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
  chmodSync(store, 0o700);
  mkdirSync(join(projectRoot, ".archeflow/events"), { recursive: true });
  const run = (args: string[]) => runNode(CLI_BIN, args, { cwd: projectRoot, env: { HOME: home, IFLOW_MEMORY_HOME: store } });
  return { home, projectRoot, store, run };
}

async function json(run: Promise<{ code: number | null; stdout: string; stderr: string }>): Promise<Record<string, unknown>> {
  const result = await run;
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe("--json on every action command", () => {
  it("prints what forget, feedback, contest, tag and export-rules did", async () => {
    const { run, home } = workspace();
    const [first, second, third] = (JSON.parse((await run(["list", "--scope", "global", "--json"])).stdout) as Array<{ contentHash: string; name: string }>).slice(0, 3);
    expect(await json(run(["feedback", first!.contentHash, "--helpful", "--json"]))).toEqual({ hash: first!.contentHash, name: first!.name, helpful: true, votes: { helpful: 1, unhelpful: 0 } });
    expect(await json(run(["contest", first!.contentHash, second!.contentHash, "--json"]))).toEqual({ contested: [{ hash: first!.contentHash, name: first!.name }, { hash: second!.contentHash, name: second!.name }] });
    expect(await json(run(["tag", third!.contentHash, "--project-specific", "--json"]))).toEqual({ hash: third!.contentHash, name: third!.name, tag: "project-specific", changed: true });
    expect(await json(run(["forget", third!.contentHash, "--json"]))).toMatchObject({ archived: { hash: third!.contentHash, name: third!.name } });
    expect(await json(run(["export-rules", "--json"]))).toMatchObject({ path: join(home, ".claude/rules/iflow-memory.md"), entries: expect.any(Number), chars: expect.any(Number) });
  });

  it("prints what the lessons commands did", async () => {
    const { run, projectRoot } = workspace();
    const added = await json(run(["lessons", "add", "Always run the migrations in a transaction", "--json"]));
    expect(added).toMatchObject({ id: "m-001", type: "preference", description: "Always run the migrations in a transaction" });
    const events = [
      { run_id: "r1", seq: 1, type: "review.verdict", data: { archetype: "guardian", findings: [{ severity: "bug", description: "The upload retry loop never gives up", category: "code" }] } },
    ];
    writeFileSync(join(projectRoot, ".archeflow/events/r1.jsonl"), `${events.map((event) => JSON.stringify(event)).join("\n")}\n`);
    expect(await json(run(["lessons", "extract", ".archeflow/events/r1.jsonl", "--json"]))).toMatchObject({ runId: "r1", alreadyExtracted: false, added: [{ id: "m-002" }], confirmed: [], skipped: 0 });
    expect(await json(run(["lessons", "decay", "--run-id", "r1", "--json"]))).toMatchObject({ runId: "r1", aged: expect.any(Number), archived: [] });
    expect(await json(run(["lessons", "inject", "--audit", "r1", "--json"]))).toEqual({ text: expect.stringContaining("## Known Issues (from past runs)") });
    expect(await json(run(["lessons", "audit-check", "r1", "--json"]))).toMatchObject({ runId: "r1", injected: 1, checks: [{ lesson_id: "m-001" }] });
    expect(await json(run(["lessons", "forget", "m-002", "--json"]))).toMatchObject({ id: "m-002" });
  });

  it("prints what setup claude changed", async () => {
    const { run, home } = workspace();
    const report = await json(run(["setup", "claude", "--json"]));
    expect(report).toMatchObject({ settings: { path: join(home, ".claude/settings.json"), changed: true, backup: null }, mcp: expect.stringContaining("Added the MCP server iflow-memory"), pluginInstalledToo: [] });
    expect(await json(run(["setup", "claude", "--json"]))).toMatchObject({ settings: { changed: false } });
  });
});
