import { describe, expect, it } from "vitest";
import { addMcpServer, removeMcpServer } from "./claude-mcp-config.js";

const SERVER = { type: "stdio" as const, command: "node", args: ["/opt/iflow-memory/mcp-server.cjs"] };

describe("removeMcpServer", () => {
  it("gives back the config as it was before addMcpServer, without the mcpServers it emptied", () => {
    const before = { numStartups: 3, mcpServers: { github: { type: "http", url: "https://example.com/mcp" } } };
    expect(removeMcpServer(addMcpServer(before, SERVER).settings)).toEqual({ settings: before, outcome: "removed" });
    expect(removeMcpServer(addMcpServer({ numStartups: 3 }, SERVER).settings)).toEqual({ settings: { numStartups: 3 }, outcome: "removed" });
  });

  it("removes, at local scope, the project's entry and then projects when the removal leaves them empty", () => {
    expect(removeMcpServer(addMcpServer({ userID: "u" }, SERVER, "/work/demo").settings, "/work/demo")).toEqual({ settings: { userID: "u" }, outcome: "removed" });
    const other = { projects: { "/work/webshop": { allowedTools: ["Bash"] }, "/work/demo": { allowedTools: [] } } };
    expect(removeMcpServer(addMcpServer(other, SERVER, "/work/demo").settings, "/work/demo").settings).toEqual(other);
    const alone = { projects: { "/work/demo": {} } };
    expect(removeMcpServer(addMcpServer(alone, SERVER, "/work/demo").settings, "/work/demo").settings).toEqual({});
  });

  it("keeps the emptied mcpServers with keepEmpty, for a config that had it before", () => {
    expect(removeMcpServer(addMcpServer({ mcpServers: {} }, SERVER).settings, undefined, { keepEmpty: true }).settings).toEqual({ mcpServers: {} });
  });

  it("says absent, and changes nothing, when the server is not registered", () => {
    const config = { mcpServers: { github: { type: "http", url: "https://example.com/mcp" } } };
    expect(removeMcpServer(config)).toEqual({ settings: config, outcome: "absent" });
  });
});
