import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// Single-quoted: Claude Code runs hook commands through sh -c (see setup-claude-shell-quoting.test.ts).
const HOOK = `node '${join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs")}'`;
const PROMPT_HOOK = `node '${join(REPO_ROOT, "packages/hook-adapter/dist/user-prompt-submit.cjs")}'`;
const MCP_BUNDLE = join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs");
const MCP_SERVER = { type: "stdio", command: "node", args: [MCP_BUNDLE] };
const setup = (home: string, args: string[] = []) => runNode(CLI_BIN, ["setup", "claude", ...args], { env: { HOME: home } });

describe("iflow-memory setup claude", () => {
  it("creates ~/.claude/settings.json with the SessionStart hook when there is none, and does nothing the second time", async () => {
    const home = makeTempDir();
    const first = await setup(home);
    expect(first).toMatchObject({
      code: 0,
      stdout:
        `Added the SessionStart hook to ${home}/.claude/settings.json:\n  ${HOOK}\nAdded the UserPromptSubmit hook to ${home}/.claude/settings.json:\n  ${PROMPT_HOOK}\n` +
        `Added the MCP server iflow-memory (user scope) to ${home}/.claude.json:\n  node '${MCP_BUNDLE}'\n`,
    });
    expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"))).toEqual({ mcpServers: { "iflow-memory": MCP_SERVER } });
    expect(JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"))).toEqual({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: HOOK, timeout: 10 }] }], UserPromptSubmit: [{ hooks: [{ type: "command", command: PROMPT_HOOK, timeout: 10 }] }] },
    });
    const second = await setup(home);
    expect([second.code, second.stdout]).toEqual([
      0,
      `Already installed in ${home}/.claude/settings.json; nothing changed.\nThe MCP server is already registered (user scope) in ${home}/.claude.json; nothing changed.\n`,
    ]);
    expect(existsSync(join(home, ".claude/settings.json.iflow-memory.bak"))).toBe(false);
    expect(existsSync(join(home, ".claude.json.iflow-memory.bak"))).toBe(false);
  });

  it("merges into existing settings, keeping every other key and hook, with a backup of the old file", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".claude"));
    const existing = `{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "guard.sh" }] }],\n    "SessionStart": [{ "hooks": [{ "type": "command", "command": "hello.sh" }] }]\n  }\n}\n`;
    writeFileSync(join(home, ".claude/settings.json"), existing, { mode: 0o644 });
    const result = await setup(home);
    const { statSync } = await import("node:fs");
    expect(statSync(join(home, ".claude/settings.json")).mode & 0o777).toBe(0o644);
    expect(result.stdout).toContain(`Previous settings kept in ${home}/.claude/settings.json.iflow-memory.bak.`);
    expect(readFileSync(join(home, ".claude/settings.json.iflow-memory.bak"), "utf8")).toBe(existing);
    expect(JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"))).toEqual({
      model: "opus",
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }],
        SessionStart: [{ hooks: [{ type: "command", command: "hello.sh" }] }, { hooks: [{ type: "command", command: HOOK, timeout: 10 }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: PROMPT_HOOK, timeout: 10 }] }],
      },
    });
    await setup(home, ["--uninstall"]);
    expect(JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8")).hooks.SessionStart).toEqual([{ hooks: [{ type: "command", command: "hello.sh" }] }]);
  });

  it("refuses to touch a settings file that is not valid JSON: exit 1, one line, no change, no backup", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".claude"));
    writeFileSync(join(home, ".claude/settings.json"), '{ "model": "opus", }');
    const result = await setup(home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^iflow-memory: will not change .*settings\.json: it is not valid JSON \(.*\); fix it by hand, then run setup again\n$/);
    expect(readFileSync(join(home, ".claude/settings.json"), "utf8")).toBe('{ "model": "opus", }');
    expect(existsSync(join(home, ".claude/settings.json.iflow-memory.bak"))).toBe(false);
  });

  it("installs into a project's .claude/settings.json with --project", async () => {
    const home = makeTempDir();
    const project = makeTempDir();
    const result = await runNode(CLI_BIN, ["setup", "claude", "--project", project, "--command", "iflow-memory hook session-start"], { env: { HOME: home } });
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, ".claude/settings.json"), "utf8")).hooks.SessionStart[0].hooks[0].command).toBe("iflow-memory hook session-start");
    expect(existsSync(join(home, ".claude/settings.json"))).toBe(false);
  });

  it("registers the MCP server in Claude Code's ~/.claude.json, keeping every other key, and removes it with --uninstall", async () => {
    const home = makeTempDir();
    const existing = { numStartups: 12, userID: "abc", projects: { "/work/webshop": { allowedTools: ["Bash"], mcpServers: { db: { type: "stdio", command: "db-mcp", args: [] } } } }, mcpServers: { github: { type: "http", url: "https://example.com/mcp" } } };
    writeFileSync(join(home, ".claude.json"), `${JSON.stringify(existing, null, 2)}\n`, { mode: 0o600 });
    const result = await setup(home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Previous Claude Code config kept in ${home}/.claude.json.iflow-memory.bak.`);
    expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"))).toEqual({ ...existing, mcpServers: { ...existing.mcpServers, "iflow-memory": MCP_SERVER } });
    const { statSync } = await import("node:fs");
    expect(statSync(join(home, ".claude.json")).mode & 0o777).toBe(0o600);
    const removed = await setup(home, ["--uninstall"]);
    expect(removed.stdout).toContain(`Removed the iflow-memory MCP server (user scope) from ${home}/.claude.json.\n`);
    expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"))).toEqual(existing);
    const again = await setup(home, ["--uninstall"]);
    expect(again.stdout).toContain(`No iflow-memory MCP server (user scope) in ${home}/.claude.json; nothing changed.\n`);
  });

  it("registers the MCP server in the project's local scope with --project, and not at all with --no-mcp", async () => {
    const home = makeTempDir();
    const project = makeTempDir();
    await runNode(CLI_BIN, ["setup", "claude", "--project", project], { env: { HOME: home } });
    expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"))).toEqual({ projects: { [project]: { mcpServers: { "iflow-memory": MCP_SERVER } } } });
    const other = makeTempDir();
    const skipped = await runNode(CLI_BIN, ["setup", "claude", "--no-mcp"], { env: { HOME: other } });
    expect([skipped.code, skipped.stdout.includes("MCP")]).toEqual([0, false]);
    expect(existsSync(join(other, ".claude.json"))).toBe(false);
  });

  it("never rewrites a ~/.claude.json that is not valid JSON", async () => {
    const home = makeTempDir();
    writeFileSync(join(home, ".claude.json"), '{ "numStartups": 1, ');
    const result = await setup(home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^iflow-memory: will not change .*\.claude\.json: it is not valid JSON \(.*\); fix it by hand, then run setup again\n$/);
    expect(readFileSync(join(home, ".claude.json"), "utf8")).toBe('{ "numStartups": 1, ');
  });
});
