import { createMemoryServer } from "@iflow-memory/mcp-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { onTestFinished } from "vitest";

/**
 * The MCP server over `projectRoot` and `globalStoreDir`, driven in-process by the SDK's own
 * client (named `iflow-memory-test`), closed when the test ends.
 *
 * @example
 * const client = await connectInMemory({ projectRoot, globalStoreDir: store, cwd: projectRoot });
 * await client.callTool({ name: "search_memory", arguments: { query: "retry" } });
 */
export async function connectInMemory(options: { projectRoot: string; globalStoreDir: string; cwd: string }): Promise<Client> {
  const server = createMemoryServer({ ...options, env: {} });
  const client = new Client({ name: "iflow-memory-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  onTestFinished(() => client.close());
  return client;
}
