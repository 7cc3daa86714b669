import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, HOOK_BIN, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../mcp/in-memory-client.js";

// Control characters but tab and newline: what must never reach a terminal or an agent's context.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function workspace() {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(
    join(projectRoot, "docs/knowledge-bank/heuristics.md"),
    "### Heuristic: Clear\u001b[2J\u001b]0;pwned\u0007 The Screen\u0000\nRetry flaky deploys\u001b[8m hidden\u001b[0m once\u0000 and\tnot twice.\n- Tags: deploy\u009b31m\n- Observation count: 2\n\n" +
      "### Heuristic: Small Commits\nCommit one concern at a time so review stays easy.\n\n### Heuristic: Read Errors\nRead the whole error message before changing code.\n\n" +
      "### Heuristic: Name Things\nNames say what things are, never how they are built.\n",
  );
  return { base, projectRoot, store: join(base, "store"), env: { HOME: join(base, "home"), IFLOW_MEMORY_HOME: join(base, "store") } };
}

describe("control characters in an entry", () => {
  it("never reach the session-start hook's context or what the CLI prints", async () => {
    const { projectRoot, store, env } = workspace();
    const hook = await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "s1", cwd: projectRoot, hook_event_name: "SessionStart", source: "startup" }) });
    // (The prompt hook's block is made by the same formatter, serializeEntry.)
    const contexts = [hook.stdout].map((output) => (JSON.parse(output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext);
    expect(contexts[0]).toContain("### Heuristic: Clear The Screen\nRetry flaky deploys hidden once and\tnot twice.\n- Tags: deploy31m\n");
    const printed: string[] = [];
    for (const args of [["inject"], ["list"], ["show", "Clear The Screen"], ["search", "retry", "flaky", "deploys"], ["stats"], ["doctor"]]) {
      const result = await runNode(CLI_BIN, [...args, "--project-root", projectRoot, "--global-store", store], { env });
      printed.push(result.stdout, result.stderr);
    }
    expect(printed.join("")).toContain("Clear The Screen");
    for (const text of [...contexts, ...printed]) expect(text).not.toMatch(CONTROL);
  });

  it("never reach an MCP client", async () => {
    const { projectRoot, store } = workspace();
    const client = await connectInMemory({ projectRoot, globalStoreDir: store, cwd: projectRoot });
    const answers = [await client.callTool({ name: "search_memory", arguments: { query: "retry flaky deploys" } }), await client.callTool({ name: "list_memories", arguments: {} })];
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === "string") strings.push(value);
      else if (value !== null && typeof value === "object") Object.values(value).forEach(collect);
    };
    collect(answers);
    expect(strings.join("\n")).toContain("Clear The Screen");
    for (const text of strings) expect(text).not.toMatch(CONTROL);
  });
});
