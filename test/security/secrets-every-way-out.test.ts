import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, HOOK_BIN, makeTempDir, PROMPT_HOOK_BIN, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../mcp/in-memory-client.js";
import { rawRequest, startUi, stopUi } from "../viewer/run-ui.js";

// Fake tokens, assembled so that no real-looking one sits in the source.
const LOCAL_TOKEN = `${"ghp"}_${"L0cal9".repeat(6)}`;
const GLOBAL_TOKEN = `${"ghp"}_${"G1obal".repeat(6)}`;

function workspace() {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  const store = join(base, "store");
  mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  mkdirSync(store, { mode: 0o700 });
  writeFileSync(
    join(projectRoot, "docs/knowledge-bank/heuristics.md"),
    `### Heuristic: Rotate ${LOCAL_TOKEN} Monthly\nRotate the deploy tokens every month and retry flaky deploys once.\n- Observation count: 3\n`,
  );
  // Written by another tool: a secret in a header of the global store.
  writeFileSync(
    join(store, "patterns.md"),
    `# Global Patterns\n\n### Pattern: Pin ${GLOBAL_TOKEN} In CI\nPin every deploy token in CI and retry flaky deploys once.\n- Content-Hash: sha256:0\n- Source: other\n- Observation count: 5\n- Tags: universal\n`,
    { mode: 0o600 },
  );
  const env = { HOME: join(base, "home"), IFLOW_MEMORY_HOME: store };
  return { base, projectRoot, store, env };
}

// Every file under a folder, with its text.
function filesUnder(directory: string): Array<[string, string]> {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .map((name) => join(directory, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => [path, readFileSync(path, "latin1")]);
}

describe("a secret in an entry's header line", () => {
  it("never leaves through inject, the hooks, tracking, the cache, history, list, show, search, export-rules or promote", async () => {
    const { base, projectRoot, store, env } = workspace();
    const cli = (args: string[]) => runNode(CLI_BIN, args, { env, cwd: projectRoot });
    const outputs: string[] = [];
    outputs.push((await cli(["inject", "--project-root", projectRoot, "--global-store", store])).stdout);
    outputs.push((await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "s1", cwd: projectRoot, hook_event_name: "SessionStart", source: "startup" }) })).stdout);
    outputs.push((await runNode(PROMPT_HOOK_BIN, [], { env, stdin: JSON.stringify({ session_id: "s1", cwd: projectRoot, hook_event_name: "UserPromptSubmit", prompt: "rotate deploy tokens and retry flaky deploys" }) })).stdout);
    for (const args of [["list"], ["list", "--json"], ["search", "rotate", "deploy", "tokens"], ["show", "Pin [REDACTED] In CI"], ["history"], ["stats"]]) {
      outputs.push((await cli([...args, "--project-root", projectRoot, "--global-store", store])).stdout);
    }
    const rules = join(base, "rules.md");
    expect((await cli(["export-rules", "--project-root", projectRoot, "--global-store", store, "--dest", rules])).code).toBe(0);
    outputs.push(readFileSync(rules, "utf8"));

    const strict = await cli(["promote", "--all", "--strict", "--project-root", projectRoot, "--global-store", store]);
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain("contains a secret (github-token)");
    expect((await cli(["promote", "--all", "--universal", "Rotate [REDACTED] Monthly", "--project-root", projectRoot, "--global-store", store])).code).toBe(0);

    expect(outputs.join("\n")).toContain("Rotate [REDACTED] Monthly");
    expect(outputs.join("\n")).toContain("Pin [REDACTED] In CI");
    for (const output of [...outputs, ...filesUnder(store).filter(([path]) => !path.endsWith("patterns.md")).map(([path, text]) => `${path}\n${text}`)]) {
      expect(output).not.toContain(LOCAL_TOKEN);
      expect(output).not.toContain(GLOBAL_TOKEN);
    }
    expect(readFileSync(join(store, "heuristics.md"), "utf8")).toContain("### Heuristic: Rotate [REDACTED] Monthly\n");
  }, 60_000);

  it("is reported by doctor, with the header's secret found and not printed", async () => {
    const { projectRoot, store, env } = workspace();
    const doctor = await runNode(CLI_BIN, ["doctor", "--project-root", projectRoot, "--global-store", store], { env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('heuristics.md:1: "Rotate [REDACTED] Monthly" contains github-token');
    expect(doctor.stdout).toContain('patterns.md:3: "Pin [REDACTED] In CI" contains github-token');
    expect(doctor.stdout + doctor.stderr).not.toContain(LOCAL_TOKEN);
  });

  it("never reaches an MCP client", async () => {
    const { projectRoot, store } = workspace();
    const client = await connectInMemory({ projectRoot, globalStoreDir: store, cwd: projectRoot });
    const answers = [
      await client.callTool({ name: "search_memory", arguments: { query: "rotate deploy tokens retry flaky deploys" } }),
      await client.callTool({ name: "list_memories", arguments: {} }),
    ];
    const text = JSON.stringify(answers);
    expect(text).toContain("[REDACTED]");
    expect(text).not.toContain(LOCAL_TOKEN);
    expect(text).not.toContain(GLOBAL_TOKEN);
  });

  it("never reaches a viewer page", async () => {
    const { projectRoot, store, env } = workspace();
    const ui = await startUi(["--project-root", projectRoot, "--global-store", store], env);
    const headers = { host: `127.0.0.1:${ui.port}`, cookie: `iflow-memory-${ui.port}=${ui.token}` };
    try {
      const list = await rawRequest(ui.port, "GET", "/", headers);
      const hashes = [...list.body.matchAll(/href="\/entry\/([0-9a-f]{16})"/g)].map((match) => match[1]!);
      expect(hashes.length).toBeGreaterThanOrEqual(2);
      const pages = [list.body, (await rawRequest(ui.port, "GET", "/?q=rotate+deploy+tokens", headers)).body, (await rawRequest(ui.port, "GET", "/doctor", headers)).body];
      for (const hash of hashes) pages.push((await rawRequest(ui.port, "GET", `/entry/${hash}`, headers)).body);
      expect(pages.join("\n")).toContain("[REDACTED]");
      for (const page of pages) {
        expect(page).not.toContain(LOCAL_TOKEN);
        expect(page).not.toContain(GLOBAL_TOKEN);
      }
    } finally {
      expect(await stopUi(ui.process)).toBe(0);
    }
  });
});
