import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, HOOK_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// Single-quoted: Claude Code runs hook commands through sh -c (see setup-claude-shell-quoting.test.ts).
// With the MCP server registered beside them, the hooks' index names its tools (--mcp).
const HOOK = `node '${join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs")}' --mcp`;
const PROMPT_HOOK = `node '${join(REPO_ROOT, "packages/hook-adapter/dist/user-prompt-submit.cjs")}' --mcp`;
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

  it("writes a project's hooks so that they run on another machine: iflow-memory from the PATH, or under $CLAUDE_PROJECT_DIR when the install is inside the project", async () => {
    const home = makeTempDir();
    const project = makeTempDir();
    const outside = await runNode(CLI_BIN, ["setup", "claude", "--project", project], { env: { HOME: home } });
    expect(outside.stdout).toContain("runs `iflow-memory` from the PATH");
    const hooks = (JSON.parse(readFileSync(join(project, ".claude/settings.json"), "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks;
    expect([hooks.SessionStart![0]!.hooks[0]!.command, hooks.UserPromptSubmit![0]!.hooks[0]!.command]).toEqual(["iflow-memory hook session-start --mcp", "iflow-memory hook user-prompt-submit --mcp"]);
    // This checkout as the project: the bundles are inside it.
    const inside = makeTempDir();
    await runNode(CLI_BIN, ["setup", "claude", "--project", REPO_ROOT, "--dry-run", "--json"], { env: { HOME: inside } }).then((result) => {
      const settings = (JSON.parse(result.stdout) as { settings: { result: { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> } } }).settings.result;
      expect(settings.hooks.SessionStart![0]!.hooks[0]!.command).toBe(`node "$CLAUDE_PROJECT_DIR"/'packages/hook-adapter/dist/session-start.cjs' --mcp`);
    });
    // And that command runs the hook from the project's folder as Claude Code runs it.
    const { execFileSync } = await import("node:child_process");
    const output = execFileSync("sh", ["-c", `node "$CLAUDE_PROJECT_DIR"/'packages/hook-adapter/dist/session-start.cjs' --mcp`], {
      env: { PATH: process.env.PATH ?? "", HOME: inside, CLAUDE_PROJECT_DIR: REPO_ROOT },
      input: JSON.stringify({ session_id: "p", cwd: join(REPO_ROOT, "examples/demo-project"), hook_event_name: "SessionStart", source: "startup" }),
      encoding: "utf8",
    });
    expect(output).toContain('"hookEventName":"SessionStart"');
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
    // Without the MCP server, the hooks' index names the command line instead.
    const hooks = JSON.parse(readFileSync(join(other, ".claude/settings.json"), "utf8")).hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    expect([hooks.SessionStart![0]!.hooks[0]!.command, hooks.UserPromptSubmit![0]!.hooks[0]!.command]).toEqual([HOOK.replace(/ --mcp$/, ""), PROMPT_HOOK.replace(/ --mcp$/, "")]);
  });

  it("says in one line when the iflow-memory plugin is installed too, and doctor reports both routes as a problem", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".claude"));
    writeFileSync(join(home, ".claude/settings.json"), `${JSON.stringify({ enabledPlugins: { "iflow-memory@iflow-memory": true, "other@market": true } }, null, 2)}\n`);
    const result = await setup(home);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").filter((line) => line.startsWith("Note:"))).toEqual([
      `Note: the iflow-memory plugin is installed too (${join(home, ".claude/settings.json")}): Claude Code runs both routes' hooks, and only one of them injects. Keep one: \`claude plugin uninstall iflow-memory@iflow-memory\`, or \`iflow-memory setup claude --uninstall\`.`,
    ]);
    const doctor = await runNode(CLI_BIN, ["doctor", "--json", "--project-root", makeTempDir(), "--global-store", join(home, "store")], { env: { HOME: home } });
    const install = (JSON.parse(doctor.stdout) as Array<{ name: string; status: string; details: string[] }>).find((check) => check.name === "claude code install");
    expect([doctor.code, install?.status, install?.details.at(-1)]).toEqual([1, "problem", expect.stringMatching(/^both routes are installed: Claude Code runs two of our hooks per event/)]);
    // With one route left, doctor is content.
    await setup(home, ["--uninstall"]);
    const after = await runNode(CLI_BIN, ["doctor", "--json", "--project-root", makeTempDir(), "--global-store", join(home, "store")], { env: { HOME: home } });
    expect((JSON.parse(after.stdout) as Array<{ name: string; status: string }>).find((check) => check.name === "claude code install")?.status).toBe("ok");
  });

  it("never rewrites a ~/.claude.json that is not valid JSON", async () => {
    const home = makeTempDir();
    writeFileSync(join(home, ".claude.json"), '{ "numStartups": 1, ');
    const result = await setup(home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^iflow-memory: will not change .*\.claude\.json: it is not valid JSON \(.*\); fix it by hand, then run setup again\n$/);
    expect(readFileSync(join(home, ".claude.json"), "utf8")).toBe('{ "numStartups": 1, ');
  });

  describe("--uninstall after an install", () => {
    // The user's own formatting (4 spaces, their key order), which a rewrite would not keep.
    const SETTINGS = `{\n    "model": "opus",\n    "hooks": {\n        "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "guard.sh" }] }]\n    },\n    "permissions": { "allow": ["Bash(git status)"] }\n}\n`;
    const CLAUDE_JSON = `{"numStartups":12,"userID":"abc","projects":{"/work/webshop":{"allowedTools":["Bash"],"mcpServers":{}}},"mcpServers":{"github":{"type":"http","url":"https://example.com/mcp"}}}`;
    const backups = (home: string, ...folders: string[]) => [home, join(home, ".claude"), ...folders].flatMap((folder) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".iflow-memory.bak")) : []));

    it("leaves the user's settings and ~/.claude.json byte for byte as before, removes the backups and says so", async () => {
      const home = makeTempDir();
      mkdirSync(join(home, ".claude"));
      writeFileSync(join(home, ".claude/settings.json"), SETTINGS, { mode: 0o644 });
      writeFileSync(join(home, ".claude.json"), CLAUDE_JSON, { mode: 0o600 });
      expect((await setup(home)).code).toBe(0);
      expect(backups(home)).toEqual([".claude.json.iflow-memory.bak", "settings.json.iflow-memory.bak"]);
      const removed = await setup(home, ["--uninstall"]);
      expect([removed.code, removed.stderr, removed.stdout]).toEqual([
        0,
        "",
        `Removed the iflow-memory SessionStart and UserPromptSubmit hooks from ${home}/.claude/settings.json.\n${home}/.claude/settings.json is again as it was before the install (its backup put back).\n` +
          `Removed the iflow-memory MCP server (user scope) from ${home}/.claude.json.\n${home}/.claude.json is again as it was before the install (its backup put back).\n`,
      ]);
      expect([readFileSync(join(home, ".claude/settings.json"), "utf8"), readFileSync(join(home, ".claude.json"), "utf8")]).toEqual([SETTINGS, CLAUDE_JSON]);
      const { statSync } = await import("node:fs");
      expect([statSync(join(home, ".claude/settings.json")).mode & 0o777, statSync(join(home, ".claude.json")).mode & 0o777]).toEqual([0o644, 0o600]);
      expect(backups(home)).toEqual([]);
    });

    it("leaves no file behind when there was none before, and removes the hooks' cache with one line", async () => {
      const home = makeTempDir();
      expect((await setup(home)).code).toBe(0);
      const project = makeTempDir();
      mkdirSync(join(project, "docs/knowledge-bank"), { recursive: true });
      writeFileSync(join(project, "docs/knowledge-bank/heuristics.md"), "### Heuristic: Reproduce First\nWrite the failing test first.\n- Confidence: high\n");
      const hook = await runNode(HOOK_BIN, [], { stdin: JSON.stringify({ session_id: "s1", cwd: project, hook_event_name: "SessionStart", source: "startup" }), env: { HOME: home } });
      expect(hook.code).toBe(0);
      expect(existsSync(join(home, ".claude/iflow/memory/.cache"))).toBe(true);
      const removed = await setup(home, ["--uninstall"]);
      expect(removed.code).toBe(0);
      expect(removed.stdout).toContain(`Removed ${home}/.claude/settings.json: it held nothing else, and there was none before the install.\n`);
      expect(removed.stdout).toContain(`Removed ${home}/.claude.json: it held nothing else, and there was none before the install.\n`);
      expect(removed.stdout).toMatch(new RegExp(`\nRemoved the hooks' cache ${home}/\\.claude/iflow/memory/\\.cache \\(\\d+ files?, [\\d.]+ (bytes|KB|MB): derived data only, rebuilt at the next session start; your memory is untouched\\)\\.\n$`));
      expect([existsSync(join(home, ".claude/settings.json")), existsSync(join(home, ".claude.json")), existsSync(join(home, ".claude/iflow/memory/.cache"))]).toEqual([false, false, false]);
      expect(backups(home)).toEqual([]);
    });

    it("leaves a project's settings and its local scope as before with --project", async () => {
      const home = makeTempDir();
      const project = makeTempDir();
      mkdirSync(join(project, ".claude"));
      writeFileSync(join(project, ".claude/settings.json"), SETTINGS);
      writeFileSync(join(home, ".claude.json"), CLAUDE_JSON);
      expect((await runNode(CLI_BIN, ["setup", "claude", "--project", project], { env: { HOME: home } })).code).toBe(0);
      expect((await runNode(CLI_BIN, ["setup", "claude", "--project", project, "--uninstall"], { env: { HOME: home } })).code).toBe(0);
      expect([readFileSync(join(project, ".claude/settings.json"), "utf8"), readFileSync(join(home, ".claude.json"), "utf8")]).toEqual([SETTINGS, CLAUDE_JSON]);
      expect(backups(home, join(project, ".claude"))).toEqual([]);
    });

    it("keeps what changed since the install, without the empty hooks and mcpServers of its own, and removes the backups", async () => {
      const home = makeTempDir();
      mkdirSync(join(home, ".claude"));
      writeFileSync(join(home, ".claude/settings.json"), `{ "model": "opus" }\n`);
      writeFileSync(join(home, ".claude.json"), `{ "numStartups": 1 }\n`);
      expect((await setup(home)).code).toBe(0);
      for (const [file, key] of [[".claude/settings.json", "theme"], [".claude.json", "numStartups"]] as const) {
        const changed = { ...JSON.parse(readFileSync(join(home, file), "utf8")), [key]: 2 };
        writeFileSync(join(home, file), JSON.stringify(changed));
      }
      const removed = await setup(home, ["--uninstall"]);
      expect(removed.stdout).toContain(`Removed the backup ${home}/.claude/settings.json.iflow-memory.bak.\n`);
      expect(JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"))).toEqual({ model: "opus", theme: 2 });
      expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"))).toEqual({ numStartups: 2 });
      expect(backups(home)).toEqual([]);
    });
  });
});
