import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// A dotfiles repository: ~/.claude/settings.json and ~/.claude.json are links into it.
function dotfiles() {
  const base = makeTempDir();
  const home = join(base, "home");
  const repo = join(base, "dotfiles");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(repo, "claude"), { recursive: true });
  writeFileSync(join(repo, "claude/settings.json"), '{ "model": "opus" }\n', { mode: 0o644 });
  writeFileSync(join(repo, "claude.json"), '{ "numStartups": 3 }\n', { mode: 0o600 });
  symlinkSync(join(repo, "claude/settings.json"), join(home, ".claude/settings.json"));
  symlinkSync("../dotfiles/claude.json", join(home, ".claude.json")); // a relative link
  return { home, repo };
}

describe("iflow-memory setup claude (symlinked settings)", () => {
  it("writes through a symlinked settings.json and ~/.claude.json to their targets, keeping the links", async () => {
    const { home, repo } = dotfiles();
    const result = await runNode(CLI_BIN, ["setup", "claude"], { env: { HOME: home } });
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect([lstatSync(join(home, ".claude/settings.json")).isSymbolicLink(), readlinkSync(join(home, ".claude/settings.json"))]).toEqual([true, join(repo, "claude/settings.json")]);
    expect([lstatSync(join(home, ".claude.json")).isSymbolicLink(), readlinkSync(join(home, ".claude.json"))]).toEqual([true, "../dotfiles/claude.json"]);
    const settings = JSON.parse(readFileSync(join(repo, "claude/settings.json"), "utf8")) as { model: string; hooks: Record<string, unknown> };
    expect([settings.model, Object.keys(settings.hooks)]).toEqual(["opus", ["SessionStart", "UserPromptSubmit"]]);
    expect(Object.keys((JSON.parse(readFileSync(join(repo, "claude.json"), "utf8")) as { mcpServers: object }).mcpServers)).toEqual(["iflow-memory"]);
    expect([lstatSync(join(repo, "claude/settings.json")).mode & 0o777, lstatSync(join(repo, "claude.json")).mode & 0o777]).toEqual([0o644, 0o600]);
    // The backup holds what the link showed before, beside the link.
    expect(readFileSync(join(home, ".claude/settings.json.iflow-memory.bak"), "utf8")).toBe('{ "model": "opus" }\n');

    const removed = await runNode(CLI_BIN, ["setup", "claude", "--uninstall"], { env: { HOME: home } });
    expect(removed.code).toBe(0);
    expect(lstatSync(join(home, ".claude/settings.json")).isSymbolicLink()).toBe(true);
    const after = readFileSync(join(repo, "claude/settings.json"), "utf8");
    expect([(JSON.parse(after) as { model: string }).model, after.includes("session-start")]).toEqual(["opus", false]);
  });

  it("creates the target of a link that points nowhere yet, keeping the link", async () => {
    const base = makeTempDir();
    const home = join(base, "home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    mkdirSync(join(base, "dotfiles"));
    symlinkSync(join(base, "dotfiles/settings.json"), join(home, ".claude/settings.json"));
    const result = await runNode(CLI_BIN, ["setup", "claude", "--no-mcp"], { env: { HOME: home } });
    expect(result.code).toBe(0);
    expect(lstatSync(join(home, ".claude/settings.json")).isSymbolicLink()).toBe(true);
    expect(Object.keys((JSON.parse(readFileSync(join(base, "dotfiles/settings.json"), "utf8")) as { hooks: object }).hooks)).toEqual(["SessionStart", "UserPromptSubmit"]);
  });
});
