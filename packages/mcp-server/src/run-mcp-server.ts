import { resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { resolveGlobalStoreDir } from "@iflow-memory/store";
import { createMemoryServer } from "./memory-server.js";

export interface McpServerIO {
  stdin: Readable;
  stdout: Writable;
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * Serves the iflow-memory MCP server over stdio until the client closes stdin (or the
 * process is stopped). The global store: `globalStoreDir`, else `IFLOW_MEMORY_HOME`,
 * else `~/.claude/iflow/memory`.
 *
 * @example
 * await runMcpServer({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
 */
export async function runMcpServer(io: McpServerIO, options: { projectRoot?: string | undefined; globalStoreDir?: string | undefined } = {}): Promise<void> {
  const globalStoreDir = resolve(io.cwd, resolveGlobalStoreDir({ env: io.env, ...(options.globalStoreDir === undefined ? {} : { flag: options.globalStoreDir }) }));
  const server = createMemoryServer({ projectRoot: options.projectRoot, globalStoreDir, env: io.env, cwd: io.cwd });
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => {
    const done = () => resolve();
    io.stdin.once("end", done);
    io.stdin.once("close", done);
    transport.onclose = done;
  });
  transport.onerror = (error) => io.stderr.write(`iflow-memory mcp: ${error.message}\n`);
  await server.connect(transport);
  await closed;
  await server.close();
}
