import { describe, expect, it } from "vitest";
import { addCodexHook, addCodexMcpServer, codexHooksDisabled, registeredCodexMcpServer, removeCodexHook, removeCodexMcpServer, sameCodexConfig } from "./codex-config.js";

// A config.toml as people keep them: comments, a profile, another MCP server, trust records.
const CONFIG = `# Codex settings, kept by hand
model = "gpt-5.5"            # the default model
approval_policy = "on-request"

[profiles.fast]
model = "gpt-5.5-mini"

# Docs lookup
[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
env = { "CONTEXT7_KEY" = "k" }

[hooks.state."/home/ada/.codex/hooks.json:session_start:0:0"]
trusted_hash = "sha256:0f1e"
`;

const SERVER = { command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] };

describe("addCodexMcpServer", () => {
  it("appends [mcp_servers.iflow-memory] and keeps the rest of the file byte for byte", () => {
    const { text, outcome } = addCodexMcpServer(CONFIG, SERVER);
    expect(outcome).toBe("added");
    expect(text).toBe(`${CONFIG}\n[mcp_servers.iflow-memory]\ncommand = "node"\nargs = ["/opt/iflow-memory/mcp-server.cjs"]\n`);
  });

  it("writes the variables to pass on, and updates a server that lacks them", () => {
    const withVars = { ...SERVER, env_vars: ["IFLOW_MEMORY_HOME"] };
    const { text } = addCodexMcpServer(null, withVars);
    expect(text).toBe('[mcp_servers.iflow-memory]\ncommand = "node"\nargs = ["/opt/iflow-memory/mcp-server.cjs"]\nenv_vars = ["IFLOW_MEMORY_HOME"]\n');
    expect(addCodexMcpServer(addCodexMcpServer(null, SERVER).text, withVars).outcome).toBe("updated");
    expect(addCodexMcpServer(text, withVars).outcome).toBe("unchanged");
  });

  it("writes a new file from nothing, and changes nothing the second time", () => {
    const first = addCodexMcpServer(null, SERVER);
    expect(first).toEqual({ text: '[mcp_servers.iflow-memory]\ncommand = "node"\nargs = ["/opt/iflow-memory/mcp-server.cjs"]\n', outcome: "added" });
    expect(addCodexMcpServer(first.text, SERVER)).toEqual({ text: first.text, outcome: "unchanged" });
  });

  it("updates ours in place when it points elsewhere, keeping the comments, the other server and keys the user added to ours", () => {
    const installed = `${addCodexMcpServer(CONFIG, { command: "node", args: ["/old/mcp-server.cjs"] }).text}startup_timeout_sec = 20\n`;
    const { text, outcome } = addCodexMcpServer(installed, SERVER);
    expect(outcome).toBe("updated");
    expect(text).toContain("# Codex settings, kept by hand\n");
    expect(text).toContain('model = "gpt-5.5"            # the default model\n');
    expect(registeredCodexMcpServer(text)).toEqual({ command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"], startup_timeout_sec: 20 });
    expect(text).not.toContain("/old/");
    expect(text.startsWith(CONFIG.slice(0, CONFIG.indexOf("[hooks.state")))).toBe(true);
  });

  it("adds ours inside an inline mcp_servers table, where a table of its own could not go", () => {
    const inline = 'mcp_servers = { other = { command = "x" } }\n';
    const { text, outcome } = addCodexMcpServer(inline, SERVER);
    expect(outcome).toBe("added");
    expect(registeredCodexMcpServer(text)).toEqual(SERVER);
    expect(registeredCodexMcpServer(text.replace("iflow-memory", "x-memory"))).toBeNull();
  });

  it("refuses text that is not TOML with one line naming the file", () => {
    expect(() => addCodexMcpServer('model = "gpt-5.5\n[mcp_servers', SERVER, "/home/ada/.codex/config.toml")).toThrow(/^will not change \/home\/ada\/\.codex\/config\.toml: it is not valid TOML \(at line \d+, column \d+\); fix it by hand, then run setup again$/);
  });
});

describe("removeCodexMcpServer", () => {
  it("gives back the file as it was before the install", () => {
    expect(removeCodexMcpServer(addCodexMcpServer(CONFIG, SERVER).text)).toEqual({ text: CONFIG, outcome: "removed" });
  });

  it("leaves no empty [mcp_servers] behind when ours was the only server", () => {
    const { text, outcome } = removeCodexMcpServer(addCodexMcpServer('model = "gpt-5.5"\n', SERVER).text);
    expect([outcome, text.trim()]).toEqual(["removed", 'model = "gpt-5.5"']);
  });

  it("changes nothing when ours is not there", () => {
    expect(removeCodexMcpServer(CONFIG)).toEqual({ text: CONFIG, outcome: "absent" });
  });
});

describe("addCodexHook and removeCodexHook", () => {
  const other = { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "python3 ~/.codex/hooks/scan.py", timeout: 5 }] }] } };
  const command = 'node "/opt/iflow-memory/hooks/user-prompt-submit.cjs" --mcp --agent codex';

  it("adds ours beside another tool's hook for the same event, once", () => {
    const added = addCodexHook(other, "UserPromptSubmit", command);
    expect(added).toEqual({
      settings: { hooks: { UserPromptSubmit: [...other.hooks.UserPromptSubmit, { hooks: [{ type: "command", command, timeout: 10 }] }] } },
      outcome: "added",
    });
    expect(addCodexHook(added.settings, "UserPromptSubmit", command).outcome).toBe("unchanged");
  });

  it("removes only ours, and leaves no empty event or hooks object", () => {
    expect(removeCodexHook(addCodexHook(other, "UserPromptSubmit", command).settings, "UserPromptSubmit")).toEqual({ settings: other, outcome: "removed" });
    expect(removeCodexHook(addCodexHook({}, "SessionStart", command.replace("user-prompt-submit", "session-start")).settings, "SessionStart")).toEqual({ settings: {}, outcome: "removed" });
  });
});

describe("codexHooksDisabled", () => {
  it("tells a config that turns hooks off, by the current key or the deprecated one", () => {
    expect([codexHooksDisabled(CONFIG), codexHooksDisabled("[features]\nhooks = false\n"), codexHooksDisabled("[features]\ncodex_hooks = false\n"), codexHooksDisabled("[features]\nhooks = true\n"), codexHooksDisabled("not toml =")]).toEqual([false, true, true, false, false]);
  });
});

describe("sameCodexConfig", () => {
  it("says whether a config from before the install holds what the removal gives: the same values whatever the layout, an emptied [mcp_servers] as none", () => {
    const server = { command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] };
    const removed = removeCodexMcpServer(addCodexMcpServer(CONFIG, server).text).text;
    expect([
      sameCodexConfig(CONFIG, removed),
      sameCodexConfig(`${CONFIG}\n\n# a comment\n`, removed),
      sameCodexConfig('model = "gpt-5.5"\n\n[mcp_servers]\n', 'model = "gpt-5.5"\n'),
      sameCodexConfig('model = "gpt-5.5"\n', 'model = "gpt-5.5-mini"\n'),
      sameCodexConfig('model = "gpt-5.5"\n[mcp_servers.other]\ncommand = "x"\n', 'model = "gpt-5.5"\n'),
      sameCodexConfig("not toml =", 'model = "gpt-5.5"\n'),
    ]).toEqual([true, true, true, false, false, null]);
  });
});
