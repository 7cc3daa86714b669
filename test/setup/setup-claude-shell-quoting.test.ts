import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// An installation whose folder name is shell syntax: a command substitution, a backtick one, a
// double and a single quote. Only the built files a user installs are copied.
function hostileInstall(root: string): string {
  const install = join(root, `iflow $(touch PWNED) \`touch PWNED2\` "q" it's`);
  for (const part of ["packages/cli/dist", "packages/cli/package.json", "packages/hook-adapter/dist", "packages/mcp-server/dist"]) {
    cpSync(join(REPO_ROOT, part), join(install, part), { recursive: true });
  }
  return install;
}

function project(root: string): string {
  const directory = join(root, "project");
  mkdirSync(join(directory, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(directory, "docs/knowledge-bank/heuristics.md"), "### Heuristic: Quote Every Path\nA path is data, never shell code.\n- Observation count: 2\n");
  return directory;
}

describe("iflow-memory setup claude (install path)", () => {
  it("registers hook commands that sh -c runs as the install path, never as shell code, from a folder named $(touch PWNED), `…`, \" and '", async () => {
    const root = makeTempDir();
    const home = join(root, "home");
    mkdirSync(home);
    const install = hostileInstall(root);
    const setup = await runNode(join(install, "packages/cli/dist/bin.js"), ["setup", "claude"], { env: { HOME: home }, cwd: root });
    expect([setup.code, setup.stderr]).toEqual([0, ""]);
    const settings = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const projectRoot = project(root);
    const outputs: Record<string, string> = {};
    for (const event of ["SessionStart", "UserPromptSubmit"]) {
      const command = settings.hooks[event]![0]!.hooks[0]!.command;
      // Exactly as Claude Code runs a hook: the command string through sh -c, the event on stdin.
      const stdin = JSON.stringify({ session_id: "s1", cwd: projectRoot, hook_event_name: event, source: "startup", prompt: "how should I quote every path" });
      outputs[event] = execFileSync("sh", ["-c", command], { cwd: root, input: stdin, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home, IFLOW_MEMORY_HOME: join(root, "store") } });
    }
    expect(readdirSync(root).filter((name) => name.startsWith("PWNED"))).toEqual([]);
    expect(existsSync(join(projectRoot, "PWNED"))).toBe(false);
    const context = (JSON.parse(outputs.SessionStart!) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
    expect(context.hookEventName).toBe("SessionStart");
    expect(context.additionalContext).toContain("### Heuristic: Quote Every Path\nA path is data, never shell code.");
    // The MCP server is registered without a shell: the command and its path as separate arguments.
    expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"))).toEqual({ mcpServers: { "iflow-memory": { type: "stdio", command: "node", args: [join(install, "packages/mcp-server/dist/mcp-server.cjs")] } } });
  });
});

describe("iflow-memory setup claude (upgrade)", () => {
  it("updates a hook registered with the old double-quoted command in place, never adding a second one", async () => {
    const home = makeTempDir();
    mkdirSync(join(home, ".claude"));
    const old = `node "${join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs")}"`;
    writeFileSync(join(home, ".claude/settings.json"), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: old, timeout: 10 }] }] } }));
    const result = await runNode(join(REPO_ROOT, "packages/cli/dist/bin.js"), ["setup", "claude", "--no-mcp"], { env: { HOME: home } });
    expect(result.stdout).toContain("Updated the SessionStart hook in");
    const settings = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8")) as { hooks: { SessionStart: unknown } };
    expect(settings.hooks.SessionStart).toEqual([{ hooks: [{ type: "command", command: `node '${join(REPO_ROOT, "packages/hook-adapter/dist/session-start.cjs")}'`, timeout: 10 }] }]);
  });
});
