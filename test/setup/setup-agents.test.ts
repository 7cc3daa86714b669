import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// Single-quoted: agents run hook commands through sh -c (see setup-claude-shell-quoting.test.ts).
const hook = (name: string, agent: string) => `node '${join(REPO_ROOT, `packages/hook-adapter/dist/${name}.cjs`)}' --mcp --agent ${agent}`;
const MCP_BUNDLE = join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs");
const run = (home: string, args: string[], env: Record<string, string> = {}) => runNode(CLI_BIN, ["setup", ...args], { env: { HOME: home, ...env } });

// A config.toml as people keep it: comments, another MCP server, a profile.
const CODEX_CONFIG = `# my Codex
model = "gpt-5.5" # default

[profiles.fast]
model = "gpt-5.5-mini"

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
`;
const CODEX_TRUST_NOTE =
  "Note: Codex runs a hook only once you have trusted it: start `codex`, type /hooks and trust the iflow-memory SessionStart and UserPromptSubmit hooks (until then Codex, and `codex exec` above all, skips them without a word).\n";

describe("iflow-memory setup codex", () => {
  it("adds both hooks to ~/.codex/hooks.json and the MCP server to config.toml, keeping the comments, says to trust the hooks, and does nothing the second time", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".codex"));
    writeFileSync(join(home, ".codex/config.toml"), CODEX_CONFIG);
    const first = await run(home, ["codex"]);
    expect([first.code, first.stderr]).toEqual([0, ""]);
    expect(first.stdout).toBe(
      `Added the SessionStart hook to ${home}/.codex/hooks.json:\n  ${hook("session-start", "codex")}\n` +
        `Added the UserPromptSubmit hook to ${home}/.codex/hooks.json:\n  ${hook("user-prompt-submit", "codex")}\n` +
        `Added the MCP server iflow-memory to ${home}/.codex/config.toml:\n  [mcp_servers.iflow-memory] node "${MCP_BUNDLE}"\n` +
        `Previous Codex config kept in ${home}/.codex/config.toml.iflow-memory.bak.\n` +
        CODEX_TRUST_NOTE,
    );
    expect(JSON.parse(readFileSync(join(home, ".codex/hooks.json"), "utf8"))).toEqual({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: hook("session-start", "codex"), timeout: 10 }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: hook("user-prompt-submit", "codex"), timeout: 10 }] }],
      },
    });
    expect(readFileSync(join(home, ".codex/config.toml"), "utf8")).toBe(`${CODEX_CONFIG}\n[mcp_servers.iflow-memory]\ncommand = "node"\nargs = [${JSON.stringify(MCP_BUNDLE)}]\nenv_vars = ["IFLOW_MEMORY_HOME"]\n`);
    const second = await run(home, ["codex"]);
    expect([second.code, second.stdout]).toEqual([0, `Already installed in ${home}/.codex/hooks.json; nothing changed.\nThe MCP server is already registered in ${home}/.codex/config.toml; nothing changed.\n${CODEX_TRUST_NOTE}`]);
  });

  it("removes only ours with --uninstall: config.toml as it was, another tool's hook kept", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".codex"));
    writeFileSync(join(home, ".codex/config.toml"), CODEX_CONFIG);
    const other = { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "python3 scan.py", timeout: 5 }] }] } };
    writeFileSync(join(home, ".codex/hooks.json"), JSON.stringify(other));
    await run(home, ["codex"]);
    const removed = await run(home, ["codex", "--uninstall"]);
    expect([removed.code, removed.stdout.split("\n")[0]]).toEqual([0, `Removed the iflow-memory SessionStart and UserPromptSubmit hooks from ${home}/.codex/hooks.json.`]);
    expect(readFileSync(join(home, ".codex/config.toml"), "utf8")).toBe(CODEX_CONFIG);
    expect(JSON.parse(readFileSync(join(home, ".codex/hooks.json"), "utf8"))).toEqual(other);
  });

  it("leaves a machine as it found it: --uninstall removes the files setup made, puts back those it changed, and keeps no backup", async () => {
    const home = makeTempDir();
    expect((await run(home, ["codex"])).code).toBe(0);
    // A dry run says what the uninstall would do, and changes nothing.
    const dry = await run(home, ["codex", "--uninstall", "--dry-run"]);
    expect(dry.stdout).toContain(`(dry run: ${home}/.codex/config.toml not changed; it would say: Removed the iflow-memory MCP server from ${home}/.codex/config.toml. Removed ${home}/.codex/config.toml: it held nothing else, and there was none before the install.)\n`);
    expect(readdirSync(join(home, ".codex")).sort()).toEqual(["config.toml", "hooks.json"]);
    const removed = await run(home, ["codex", "--uninstall"]);
    expect([removed.code, removed.stderr, removed.stdout]).toEqual([
      0,
      "",
      `Removed the iflow-memory SessionStart and UserPromptSubmit hooks from ${home}/.codex/hooks.json.\n` +
        `Removed ${home}/.codex/hooks.json: it held nothing else, and there was none before the install.\n` +
        `Removed the iflow-memory MCP server from ${home}/.codex/config.toml.\n` +
        `Removed ${home}/.codex/config.toml: it held nothing else, and there was none before the install.\n`,
    ]);
    expect(readdirSync(join(home, ".codex"))).toEqual([]);
    // A config.toml of the user's: byte for byte as it was, its backup gone; a hooks.json that
    // changed since the install: written without ours.
    writeFileSync(join(home, ".codex/config.toml"), CODEX_CONFIG);
    await run(home, ["codex"]);
    const hooks = JSON.parse(readFileSync(join(home, ".codex/hooks.json"), "utf8")) as { hooks: Record<string, unknown> };
    writeFileSync(join(home, ".codex/hooks.json"), JSON.stringify({ hooks: { ...hooks.hooks, Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } }));
    const json = JSON.parse((await run(home, ["codex", "--uninstall", "--json"])).stdout) as Record<string, { outcome: string; backupRemoved: string | null }>;
    expect([json.hooks!.outcome, json.mcp!.outcome, json.mcp!.backupRemoved]).toEqual(["rewritten", "restored", `${home}/.codex/config.toml.iflow-memory.bak`]);
    expect(readFileSync(join(home, ".codex/config.toml"), "utf8")).toBe(CODEX_CONFIG);
    expect(JSON.parse(readFileSync(join(home, ".codex/hooks.json"), "utf8"))).toEqual({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } });
    expect(readdirSync(join(home, ".codex")).sort()).toEqual(["config.toml", "hooks.json"]);
  });

  it("refuses a config.toml that is not TOML: exit 1, one line, nothing written", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".codex"));
    writeFileSync(join(home, ".codex/config.toml"), 'model = "gpt-5.5\n');
    const result = await run(home, ["codex"]);
    expect([result.code, result.stdout, result.stderr]).toEqual([
      1,
      "",
      `iflow-memory: will not change ${home}/.codex/config.toml: it is not valid TOML (at line 1, column 17); fix it by hand, then run setup again\n`,
    ]);
    expect([existsSync(join(home, ".codex/hooks.json")), readFileSync(join(home, ".codex/config.toml"), "utf8")]).toEqual([false, 'model = "gpt-5.5\n']);
  });

  it("installs into $CODEX_HOME, into a project's .codex/ with --project, and without the MCP server with --no-mcp; --dry-run writes nothing", async () => {
    const home = makeTempDir();
    const codexHome = join(makeTempDir(), "codex-home");
    const dry = await run(home, ["codex", "--dry-run"], { CODEX_HOME: codexHome });
    expect([dry.code, existsSync(codexHome)]).toEqual([0, false]);
    expect(dry.stdout).toContain(`(dry run: ${codexHome}/hooks.json not changed; it would say: Added the SessionStart hook`);
    await run(home, ["codex"], { CODEX_HOME: codexHome });
    expect([existsSync(join(codexHome, "hooks.json")), existsSync(join(codexHome, "config.toml"))]).toEqual([true, true]);
    const project = makeTempDir();
    const inProject = await run(home, ["codex", "--project", project, "--no-mcp"]);
    expect(inProject.stdout).toContain(`Note: Codex reads ${project}/.codex only in a project you have trusted.\n`);
    expect([existsSync(join(project, ".codex/hooks.json")), existsSync(join(project, ".codex/config.toml"))]).toEqual([true, false]);
    expect(readFileSync(join(project, ".codex/hooks.json"), "utf8")).toContain(`session-start.cjs' --agent codex"`);
  });
});

describe("iflow-memory setup gemini", () => {
  const settings = {
    general: { preferredEditor: "vim" },
    hooks: { SessionStart: [{ matcher: "startup", hooks: [{ name: "peon", type: "command", command: "bash peon.sh" }] }] },
    mcpServers: { github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"] } },
  };

  it("adds the SessionStart and BeforeAgent hooks and the MCP server to ~/.gemini/settings.json, once, and removes only ours", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".gemini"));
    writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify(settings, null, 2));
    const first = await run(home, ["gemini"]);
    expect([first.code, first.stdout]).toEqual([
      0,
      `Added the SessionStart hook to ${home}/.gemini/settings.json:\n  ${hook("session-start", "gemini")}\n` +
        `Added the BeforeAgent hook to ${home}/.gemini/settings.json:\n  ${hook("user-prompt-submit", "gemini")}\n` +
        `Added the MCP server iflow-memory to ${home}/.gemini/settings.json:\n  node "${MCP_BUNDLE}"\n` +
        `Previous settings kept in ${home}/.gemini/settings.json.iflow-memory.bak.\n` +
        "Note: Gemini CLI reads its settings when it starts: restart the sessions that are running.\n",
    ]);
    const ours = (name: string) => ({ hooks: [{ name: "iflow-memory", type: "command", command: hook(name, "gemini"), timeout: 10_000 }] });
    expect(JSON.parse(readFileSync(join(home, ".gemini/settings.json"), "utf8"))).toEqual({
      ...settings,
      hooks: { SessionStart: [...settings.hooks.SessionStart, ours("session-start")], BeforeAgent: [ours("user-prompt-submit")] },
      mcpServers: { ...settings.mcpServers, "iflow-memory": { command: "node", args: [MCP_BUNDLE] } },
    });
    expect((await run(home, ["gemini"])).stdout.split("\n")[0]).toBe(`Already installed in ${home}/.gemini/settings.json; nothing changed.`);
    const removed = await run(home, ["gemini", "--uninstall"]);
    expect(removed.stdout).toBe(
      `Removed the SessionStart hook, the BeforeAgent hook and the MCP server of iflow-memory from ${home}/.gemini/settings.json.\n` +
        `${home}/.gemini/settings.json is again as it was before the install (its backup put back).\n`,
    );
    expect(readFileSync(join(home, ".gemini/settings.json"), "utf8")).toBe(JSON.stringify(settings, null, 2));
    expect(existsSync(join(home, ".gemini/settings.json.iflow-memory.bak"))).toBe(false);
  });

  it("leaves a machine as it found it: --uninstall removes a settings.json setup made, and keeps no backup", async () => {
    const home = makeTempDir();
    expect((await run(home, ["gemini"])).code).toBe(0);
    const removed = await run(home, ["gemini", "--uninstall"]);
    expect([removed.code, removed.stderr, removed.stdout]).toEqual([
      0,
      "",
      `Removed the SessionStart hook, the BeforeAgent hook and the MCP server of iflow-memory from ${home}/.gemini/settings.json.\n` +
        `Removed ${home}/.gemini/settings.json: it held nothing else, and there was none before the install.\n`,
    ]);
    expect(readdirSync(join(home, ".gemini"))).toEqual([]);
  });

  it("keeps the comments of a settings.json that has some (Gemini CLI reads them): changes only what it adds, takes it out again, and doctor reads it", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".gemini"));
    const commented = `{
  // my editor
  "general": { "preferredEditor": "vim" },
  "hooks": {
    /* the sound of a session */
    "SessionStart": [{ "matcher": "startup", "hooks": [{ "name": "peon", "type": "command", "command": "bash peon.sh" }] }]
  }
}
`;
    writeFileSync(join(home, ".gemini/settings.json"), commented);
    // A dry run prints the file as it would be written, comments and all, and changes nothing.
    const dry = await run(home, ["gemini", "--dry-run"]);
    expect([dry.code, dry.stdout.startsWith("{\n  // my editor\n"), dry.stdout.includes('"BeforeAgent"'), readFileSync(join(home, ".gemini/settings.json"), "utf8")]).toEqual([0, true, true, commented]);
    const installed = await run(home, ["gemini"]);
    const text = readFileSync(join(home, ".gemini/settings.json"), "utf8");
    expect(dry.stdout.startsWith(`${text}(dry run: ${home}/.gemini/settings.json not changed; it would say: ${installed.stdout.split("\nPrevious settings")[0]})\n`)).toBe(true);
    expect([installed.code, installed.stderr, text.includes("  // my editor\n"), text.includes("    /* the sound of a session */\n")]).toEqual([0, "", true, true]);
    // What Gemini CLI reads: the settings without their comments.
    const ours = (name: string) => ({ hooks: [{ name: "iflow-memory", type: "command", command: hook(name, "gemini"), timeout: 10_000 }] });
    expect(JSON.parse(text.replace("  // my editor\n", "").replace("    /* the sound of a session */\n", ""))).toEqual({
      general: { preferredEditor: "vim" },
      hooks: { SessionStart: [...settings.hooks.SessionStart, ours("session-start")], BeforeAgent: [ours("user-prompt-submit")] },
      mcpServers: { "iflow-memory": { command: "node", args: [MCP_BUNDLE] } },
    });
    const doctor = await runNode(CLI_BIN, ["doctor", "--json"], { env: { HOME: home }, cwd: makeTempDir() });
    const check = (JSON.parse(doctor.stdout) as Array<{ name: string; status: string; details: string[] }>).find((entry) => entry.name === "gemini cli install");
    expect(check).toEqual({ name: "gemini cli install", status: "ok", details: [`hooks: SessionStart, BeforeAgent; MCP server: registered (${home}/.gemini)`] });
    expect((await run(home, ["gemini", "--uninstall"])).code).toBe(0);
    expect(readFileSync(join(home, ".gemini/settings.json"), "utf8")).toBe(commented);
  });

  it("refuses a settings.json that is not JSON: exit 1, one line, no change", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".gemini"));
    writeFileSync(join(home, ".gemini/settings.json"), '{ "theme": ');
    const result = await run(home, ["gemini"]);
    expect([result.code, result.stdout, result.stderr.split("\n").length]).toEqual([1, "", 2]);
    expect(result.stderr).toMatch(new RegExp(`^iflow-memory: will not change ${home}/\\.gemini/settings\\.json: it is not valid JSON`));
    expect(readFileSync(join(home, ".gemini/settings.json"), "utf8")).toBe('{ "theme": ');
  });

  it("says when hooks are turned off in the settings", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".gemini"));
    writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({ hooksConfig: { enabled: false } }));
    const result = await run(home, ["gemini", "--no-mcp", "--json"]);
    const report = JSON.parse(result.stdout) as { settings: { changed: boolean }; notes: string[] };
    expect([report.settings.changed, report.notes[0]]).toEqual([true, `hooks are turned off in ${home}/.gemini/settings.json ("hooksConfig": { "enabled": false }): set it to true, or Gemini CLI runs none of them.`]);
    expect(JSON.parse(readFileSync(join(home, ".gemini/settings.json"), "utf8")).mcpServers).toBeUndefined();
  });
});

describe("iflow-memory setup", () => {
  it("lists the agents whose config folder is here, what each would get and what is installed", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".codex"));
    mkdirSync(join(home, ".gemini"));
    await run(home, ["gemini"]);
    const result = await run(home, []);
    expect([result.code, result.stdout]).toEqual([
      0,
      `claude: not found (no ${home}/.claude)\n` +
        `codex: ${home}/.codex (nothing of iflow-memory installed yet)\n  \`iflow-memory setup codex\` adds the SessionStart and UserPromptSubmit hooks in hooks.json, the MCP server in config.toml (then trust the hooks: codex, /hooks)\n` +
        `gemini: ${home}/.gemini (installed: SessionStart and BeforeAgent hooks, the MCP server)\n  \`iflow-memory setup gemini\` adds the SessionStart and BeforeAgent hooks and the MCP server in settings.json\n`,
    ]);
  });
});

describe("iflow-memory doctor, per agent", () => {
  it("reports what is installed into Codex CLI and Gemini CLI, and a hook that runs another installation", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".codex"));
    mkdirSync(join(home, ".gemini"));
    await run(home, ["codex"]);
    await run(home, ["gemini"]);
    const settingsPath = join(home, ".gemini/settings.json");
    writeFileSync(settingsPath, readFileSync(settingsPath, "utf8").replaceAll(join(REPO_ROOT, "packages/hook-adapter/dist"), "/opt/iflow-memory/hooks"));
    const doctor = await runNode(CLI_BIN, ["doctor", "--json"], { env: { HOME: home }, cwd: makeTempDir() });
    const checks = (JSON.parse(doctor.stdout) as Array<{ name: string; status: string; details: string[] }>).filter((check) => check.name.endsWith("cli install"));
    expect(checks).toEqual([
      { name: "codex cli install", status: "ok", details: [`hooks: SessionStart, UserPromptSubmit; MCP server: registered (${home}/.codex)`, "Codex runs the hooks only once trusted: codex, /hooks"] },
      {
        name: "gemini cli install",
        status: "warning",
        details: [
          `hooks: SessionStart, BeforeAgent; MCP server: registered (${home}/.gemini)`,
          "a hook runs another installation: node '/opt/iflow-memory/hooks/session-start.cjs' --mcp --agent gemini; `iflow-memory setup gemini` points it at this one",
          "a hook runs another installation: node '/opt/iflow-memory/hooks/user-prompt-submit.cjs' --mcp --agent gemini; `iflow-memory setup gemini` points it at this one",
        ],
      },
    ]);
  });
});
