import { describe, expect, it } from "vitest";
import { addGeminiHook, addGeminiMcpServer, removeGeminiHook, removeGeminiMcpServer } from "./gemini-config.js";

// A settings.json as Gemini CLI users keep it: other settings, a hook of another tool, another MCP server.
const SETTINGS = {
  general: { preferredEditor: "vim" },
  security: { auth: { selectedType: "gemini-api-key" } },
  hooks: { SessionStart: [{ matcher: "startup", hooks: [{ name: "peon-start", type: "command", command: "bash ~/.peon/gemini.sh SessionStart" }] }] },
  mcpServers: { github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], trust: false } },
};

const START = 'node "/opt/iflow-memory/hooks/session-start.cjs" --mcp --agent gemini';
const PROMPT = 'node "/opt/iflow-memory/hooks/user-prompt-submit.cjs" --mcp --agent gemini';
const SERVER = { command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] };

describe("addGeminiHook", () => {
  it("adds ours as a group of its own beside another tool's, with the timeout in milliseconds, once", () => {
    const added = addGeminiHook(SETTINGS, "SessionStart", START);
    expect(added).toEqual({
      settings: { ...SETTINGS, hooks: { SessionStart: [...SETTINGS.hooks.SessionStart, { hooks: [{ name: "iflow-memory", type: "command", command: START, timeout: 10_000 }] }] } },
      outcome: "added",
    });
    expect(addGeminiHook(added.settings, "SessionStart", START).outcome).toBe("unchanged");
  });

  it("updates ours in place when it points elsewhere", () => {
    const old = addGeminiHook({}, "BeforeAgent", PROMPT.replace("/opt/", "/old/")).settings;
    expect(addGeminiHook(old, "BeforeAgent", PROMPT)).toEqual({ settings: { hooks: { BeforeAgent: [{ hooks: [{ name: "iflow-memory", type: "command", command: PROMPT, timeout: 10_000 }] }] } }, outcome: "updated" });
  });
});

describe("removeGeminiHook", () => {
  it("gives back the settings as they were, the other tool's hook kept", () => {
    let settings: Record<string, unknown> = addGeminiHook(addGeminiHook(SETTINGS, "SessionStart", START).settings, "BeforeAgent", PROMPT).settings;
    settings = removeGeminiHook(settings, "SessionStart").settings;
    const removed = removeGeminiHook(settings, "BeforeAgent");
    expect(removed).toEqual({ settings: SETTINGS, outcome: "removed" });
    expect(removeGeminiHook(SETTINGS, "BeforeAgent")).toEqual({ settings: SETTINGS, outcome: "absent" });
  });
});

describe("addGeminiMcpServer and removeGeminiMcpServer", () => {
  it("registers ours beside the other server, once, and removes only ours", () => {
    const added = addGeminiMcpServer(SETTINGS, SERVER);
    expect(added).toEqual({ settings: { ...SETTINGS, mcpServers: { ...SETTINGS.mcpServers, "iflow-memory": SERVER } }, outcome: "added" });
    expect(addGeminiMcpServer(added.settings, SERVER).outcome).toBe("unchanged");
    expect(removeGeminiMcpServer(added.settings)).toEqual({ settings: SETTINGS, outcome: "removed" });
  });

  it("keeps keys the user added to ours when it moves, and leaves no empty mcpServers", () => {
    const moved = addGeminiMcpServer({ mcpServers: { "iflow-memory": { command: "node", args: ["/old/mcp.cjs"], trust: true } } }, SERVER);
    expect(moved).toEqual({ settings: { mcpServers: { "iflow-memory": { ...SERVER, trust: true } } }, outcome: "updated" });
    expect(removeGeminiMcpServer(moved.settings)).toEqual({ settings: {}, outcome: "removed" });
  });
});
