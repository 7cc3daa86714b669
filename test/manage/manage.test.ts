import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseKnowledgeBank } from "@iflow-memory/parser";
import { CLI_BIN, copyCorpus, CORPORA_DIR, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

function setup() {
  const base = makeTempDir();
  const projectRoot = copyCorpus("iflow-kb-2026-04", base);
  const store = join(base, "store");
  cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
  chmodSync(store, 0o700);
  for (const file of ["anti-patterns.md", "heuristics.md", "patterns.md"]) chmodSync(join(store, file), 0o600);
  const cli = (args: string[]) => runNode(CLI_BIN, [...args, ...(args[0] === "forget" || args[0] === "contest" ? [] : ["--project-root", projectRoot]), "--global-store", store], { env: { HOME: join(base, "home") } });
  return { base, projectRoot, store, cli };
}

describe("memory management, as a user runs it", () => {
  it("lists every entry of both scopes, one line each, filtered by scope and category", async () => {
    const { cli } = setup();
    const all = (await cli(["list"])).stdout.trim().split("\n");
    const global = JSON.parse((await cli(["list", "--scope", "global", "--json"])).stdout) as unknown[];
    const patterns = (await cli(["list", "--scope", "local", "--category", "patterns"])).stdout.trim().split("\n");
    expect([all.length, global.length, patterns.length]).toEqual([265 + 18, 18, 95]);
    expect(all[0]).toMatch(/^sha256:[0-9a-f]{16} {2}local {3}anti-patterns {2}×\d+ +\w+ +\S/);
    expect((await cli(["list", "--category", "rumours"])).code).toBe(2);
  });

  it("shows an entry by hash, hash prefix or name, and refuses an ambiguous or unknown one", async () => {
    const { cli } = setup();
    const byHash = await cli(["show", "sha256:0baa2a5b66eb2269"]);
    const byPrefix = await cli(["show", "0baa"]);
    const byName = await cli(["show", "live line numbers expire before implementation — pre-step grep required"]);
    expect(byHash.stdout).toContain("### Heuristic: Live Line Numbers Expire Before Implementation");
    expect([byPrefix.stdout, byName.stdout]).toEqual([byHash.stdout, byHash.stdout]);
    const unknown = await cli(["show", "ffffffffffff"]);
    expect([unknown.code, unknown.stderr]).toEqual([1, "iflow-memory: cannot show ffffffffffff: no entry has that hash or name; see iflow-memory list\n"]);
  });

  it("counts entries and reports the injection the next session start would get, as inject computes it", async () => {
    const { cli, projectRoot, store } = setup();
    const stats = JSON.parse((await cli(["stats", "--json"])).stdout) as { entries: Record<string, Record<string, number>>; injection: { chars: number; entries: number; indexed: number } };
    const inject = JSON.parse((await runNode(CLI_BIN, ["inject", "--project-root", projectRoot, "--global-store", store, "--max-chars", "9000", "--index", "mcp", "--no-tracking", "--json"])).stdout) as { chars: number; entries: unknown[]; indexed: unknown[] };
    expect(stats.entries).toEqual({ local: { "anti-patterns": 75, patterns: 95, heuristics: 95 }, global: { "anti-patterns": 6, patterns: 6, heuristics: 6 } });
    expect([stats.injection.chars, stats.injection.entries, stats.injection.indexed]).toEqual([inject.chars, inject.entries.length, inject.indexed.length]);
    expect(stats.injection.indexed).toBeGreaterThan(40);
  });

  it("doctor passes a healthy store and fails, naming the cause, on open permissions, a bad config and a planted secret", async () => {
    const { cli, store, projectRoot } = setup();
    const healthy = await cli(["doctor"]);
    expect([healthy.code, healthy.stdout.split("\n").filter((line) => /^\S/.test(line))]).toEqual([0, ["ok      config", "ok      global store", "ok      knowledge bank", "ok      duplicate names", "ok      contradictions", "ok      secrets", "ok      claude code install", "ok      codex cli install", "ok      gemini cli install"]]);

    chmodSync(join(store, "patterns.md"), 0o644);
    mkdirSync(join(projectRoot, ".claude"));
    writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: many\n---\n");
    writeFileSync(join(store, "heuristics.md"), `${readFileSync(join(store, "heuristics.md"), "utf8")}\n### Heuristic: Leaky\nUse the deploy key ${"AKIA"}${"Q7XZ".repeat(4)} for staging.\n`);
    const sick = await cli(["doctor", "--json"]);
    const checks = JSON.parse(sick.stdout) as Array<{ name: string; status: string; details: string[] }>;
    expect(sick.code).toBe(1);
    expect(Object.fromEntries(checks.map((check) => [check.name, check.status]))).toMatchObject({ config: "problem", "global store": "warning", secrets: "problem" });
    expect(checks.find((check) => check.name === "secrets")!.details[0]).toMatch(/heuristics\.md:\d+: "Leaky" contains aws-access-key-id$/);
  });

  it("doctor reports entries that say always and never about the same thing", async () => {
    const { cli, projectRoot } = setup();
    writeFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), "### Heuristic: Mock the Database\nAlways mock the database in integration tests for speed.\n\n### Heuristic: Real Database\nNever mock the database in integration tests for speed.\n");
    const checks = JSON.parse((await cli(["doctor", "--json"])).stdout) as Array<{ name: string; status: string; details: string[] }>;
    expect(checks.find((check) => check.name === "contradictions")).toMatchObject({ status: "warning", details: [expect.stringMatching(/^"Mock the Database" vs "Real Database" \(\d+% shared words/)] });
  });

  it("forgets a global entry into .archive.md, and contested entries show each other in the injection", async () => {
    const { cli, store, projectRoot } = setup();
    const contest = await cli(["contest", "0baa2a5b", "491b5e15"]);
    expect(contest.code).toBe(0);
    const block = (await runNode(CLI_BIN, ["inject", "--project-root", projectRoot, "--global-store", store, "--limit", "-1", "--no-tracking"])).stdout;
    expect(block).toContain("- Contested with: Standard Mode Sufficient for Standalone New-Component Features (sha256:491b5e15f50c1c0d)");
    expect(block).toContain("- Contested with: Live Line Numbers Expire Before Implementation — Pre-Step Grep Required (sha256:0baa2a5b66eb2269)");

    const forget = await cli(["forget", "491b5e15"]);
    expect(forget.code).toBe(0);
    const heuristics = parseKnowledgeBank(readFileSync(join(store, "heuristics.md"), "utf8"), { category: "heuristics", scope: "global", path: "h" }).entries;
    expect(heuristics.map((entry) => entry.contentHash)).not.toContain("491b5e15f50c1c0d");
    expect(heuristics.length).toBe(5);
    expect(readFileSync(join(store, ".archive.md"), "utf8")).toContain("### Heuristic: Standard Mode Sufficient for Standalone New-Component Features\n");
    expect(readFileSync(join(store, "heuristics.md"), "utf8")).not.toContain("Contested with");
    expect((await cli(["forget", "491b5e15"])).code).toBe(1);
  });

  it("exports the universal global entries as a generated rules file, and will not overwrite a file of the user's", async () => {
    const { cli, base, store, projectRoot } = setup();
    const dest = join(base, "rules/iflow-memory.md");
    const result = await cli(["export-rules", "--dest", dest]);
    expect(result.code).toBe(0);
    const text = readFileSync(dest, "utf8");
    expect(text.startsWith("<!-- Generated by iflow-memory export-rules on ")).toBe(true);
    const empty = join(base, "empty-project");
    mkdirSync(empty);
    const globalOnly = (await runNode(CLI_BIN, ["inject", "--project-root", empty, "--global-store", store, "--max-chars", "9000", "--no-tracking"])).stdout;
    expect(text.slice(text.indexOf("\n\n") + 2)).toBe(globalOnly);
    expect(existsSync(projectRoot)).toBe(true);

    const mine = join(base, "mine.md");
    writeFileSync(mine, "# my own rules\n");
    const refused = await cli(["export-rules", "--dest", mine]);
    expect([refused.code, readFileSync(mine, "utf8")]).toEqual([1, "# my own rules\n"]);
    expect((await cli(["export-rules", "--dest", mine, "--force"])).code).toBe(0);
  });
});
