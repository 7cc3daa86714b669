import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { runClaude, startMockMessagesApi } from "./harness.js";

const PLUGIN = join(REPO_ROOT, "plugins/iflow-memory");

/** Every file under a folder, as sorted paths relative to it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .sort();
}

async function claudeIn(home: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const api = await startMockMessagesApi();
  onTestFinished(() => api.close());
  const run = await runClaude({ api, home, cwd: home, args });
  expect(run.requests).toEqual([]);
  return run;
}

describe("claude plugin validate", () => {
  it.each([
    ["the marketplace", ".", []],
    ["the plugin", "plugins/iflow-memory", []],
    ["the plugin, with the plugin directory's profile", "plugins/iflow-memory", ["--profile", "directory"]],
  ])("passes on %s", async (_what, target, profile) => {
    const run = await claudeIn(makeTempDir(), ["plugin", "validate", ...profile, join(REPO_ROOT, target)]);
    expect({ code: run.code, verdict: /✔ Validation passed\s*$/.test(run.stdout) }, run.stdout + run.stderr).toEqual({ code: 0, verdict: true });
    // Not a warning either (an author, a licence, an icon).
    expect(run.stdout + run.stderr).not.toMatch(/⚠|warning/i);
  });
});

describe("claude plugin install from this repository's marketplace", () => {
  it("copies the plugin folder alone, not the checkout with its node_modules", async () => {
    const home = makeTempDir();
    expect((await claudeIn(home, ["plugin", "marketplace", "add", REPO_ROOT])).code).toBe(0);
    expect((await claudeIn(home, ["plugin", "install", "iflow-memory@iflow-memory"])).code).toBe(0);
    const committed = execFileSync("git", ["ls-files", "--", "."], { cwd: PLUGIN, encoding: "utf8" }).split("\n").filter((line) => line !== "").sort();
    const installed = join(home, ".claude/plugins/cache/iflow-memory/iflow-memory", readdirSync(join(home, ".claude/plugins/cache/iflow-memory/iflow-memory"))[0]!);
    expect(filesUnder(installed)).toEqual(committed);
    expect(readdirSync(join(home, ".claude/plugins/marketplaces"))).toEqual([]);
  });

  it("leaves the user's settings as before once uninstalled, but for the empty keys Claude Code itself leaves", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".claude"));
    const before = { model: "opus", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }] } };
    writeFileSync(join(home, ".claude/settings.json"), `${JSON.stringify(before, null, 2)}\n`);
    for (const args of [["marketplace", "add", REPO_ROOT], ["install", "iflow-memory@iflow-memory"], ["uninstall", "iflow-memory@iflow-memory"], ["marketplace", "remove", "iflow-memory"]]) {
      const run = await claudeIn(home, ["plugin", ...args]);
      expect(run.code, run.stderr).toBe(0);
    }
    // Claude Code 2.1 keeps `enabledPlugins: {}` and `extraKnownMarketplaces: {}`: its own keys, not the plugin's.
    const { enabledPlugins = {}, extraKnownMarketplaces = {}, ...rest } = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8")) as Record<string, unknown>;
    expect({ rest, enabledPlugins, extraKnownMarketplaces }).toEqual({ rest: before, enabledPlugins: {}, extraKnownMarketplaces: {} });
  });
});
