// The MCP server as a standalone file (the Claude Code plugin runs it): `node mcp-server.cjs
// [--project-root DIR] [--global-store DIR]`, over stdio.
import { parseServerArguments } from "../parse-server-arguments.js";
import { runMcpServer } from "../run-mcp-server.js";

const parsed = parseServerArguments(process.argv.slice(2));
if ("error" in parsed) {
  process.stderr.write(`iflow-memory mcp: ${parsed.error}\n`);
  process.exit(2);
}
if ("help" in parsed) {
  process.stdout.write("usage: mcp-server.cjs [--project-root DIR] [--global-store DIR]\nServes iflow memory over MCP on stdio.\n");
  process.exit(0);
}
runMcpServer({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }, parsed).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`iflow-memory mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
