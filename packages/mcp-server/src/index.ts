export { createMemoryServer, MAX_QUERY_CHARS, SERVER_INSTRUCTIONS } from "./memory-server.js";
export type { MemoryServerOptions } from "./memory-server.js";
export { parseServerArguments } from "./parse-server-arguments.js";
export { runMcpServer } from "./run-mcp-server.js";
export type { McpServerIO } from "./run-mcp-server.js";
