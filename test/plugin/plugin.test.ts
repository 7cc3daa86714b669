import { builtinModules } from "node:module";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, copyCorpus, CORPORA_DIR, makeTempDir, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

const PLUGIN = join(REPO_ROOT, "plugins/iflow-memory");
const BUNDLE_FILES = ["session-start.cjs", "user-prompt-submit.cjs", "session-start-run.cjs", "user-prompt-submit-run.cjs", "session-start-prepare.cjs", "session-start-plan.cjs", "session-start-grow.cjs", "session-start-aside.cjs", "session-start-yaml.cjs"];
// The command's built files in the plugin's bin/, and what each is built as.
const COMMAND_FILES: Array<[string, string]> = [
  ["iflow-memory.cjs", "packages/cli/dist/bin.cjs"],
  ["inject.cjs", "packages/cli/dist/inject.cjs"],
  ["inject-grow.cjs", "packages/cli/dist/inject-grow.cjs"],
  ["inject-yaml.cjs", "packages/cli/dist/inject-yaml.cjs"],
  ["run.mjs", "packages/cli/dist/standalone/run.mjs"],
];

describe("the Claude Code plugin", () => {
  it("is listed by the marketplace, and its hooks.json runs a bundle that exists", () => {
    const marketplace = JSON.parse(readFileSync(join(REPO_ROOT, ".claude-plugin/marketplace.json"), "utf8")) as { plugins: Array<{ name: string; source: string }> };
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: "iflow-memory", source: "./plugins/iflow-memory" })]);
    const manifest = JSON.parse(readFileSync(join(PLUGIN, ".claude-plugin/plugin.json"), "utf8")) as { name: string; version: string };
    const cli = JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as { version: string };
    expect(manifest).toMatchObject({ name: "iflow-memory", version: cli.version });
    const hooks = JSON.parse(readFileSync(join(PLUGIN, "hooks/hooks.json"), "utf8")) as { hooks: { SessionStart: Array<{ hooks: Array<{ command: string }> }> } };
    const command = hooks.hooks.SessionStart[0]!.hooks[0]!.command;
    const script = /"\$\{CLAUDE_PLUGIN_ROOT\}\/(.+?)"/.exec(command)?.[1];
    expect(script).toBe("hooks/session-start.cjs");
    expect(existsSync(join(PLUGIN, script!))).toBe(true);
    expect(readFileSync(join(PLUGIN, "skills/retrospective-memory/SKILL.md"), "utf8")).toMatch(/^---\nname: retrospective-memory\ndescription: .+\n---\n[\s\S]*iflow-memory promote/);
  });

  it("ships the bundles exactly as the build makes them (run npx -y pnpm@10.34.8 plugin:sync when this fails)", () => {
    for (const file of BUNDLE_FILES) {
      expect(readFileSync(join(PLUGIN, "hooks", file)).equals(readFileSync(join(REPO_ROOT, "packages/hook-adapter/dist", file))), `${file} is stale`).toBe(true);
    }
    expect(readFileSync(join(PLUGIN, "mcp/mcp-server.cjs")).equals(readFileSync(join(REPO_ROOT, "packages/mcp-server/dist/mcp-server.cjs"))), "mcp/mcp-server.cjs is stale").toBe(true);
    for (const [file, built] of COMMAND_FILES) expect(readFileSync(join(PLUGIN, "bin", file)).equals(readFileSync(join(REPO_ROOT, built))), `bin/${file} is stale`).toBe(true);
  });

  it("declares its MCP server in .mcp.json, running the committed bundle with node", () => {
    const config = JSON.parse(readFileSync(join(PLUGIN, ".mcp.json"), "utf8")) as { mcpServers: Record<string, { command: string; args: string[] }> };
    expect(config.mcpServers).toEqual({ memory: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/mcp/mcp-server.cjs"] } });
    expect(existsSync(join(PLUGIN, "mcp/mcp-server.cjs"))).toBe(true);
  });

  it("needs no node_modules and no native module: it loads only node's built-ins and its own files", () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`), ...BUNDLE_FILES.map((name) => `./${name}`)]);
    for (const file of BUNDLE_FILES) {
      const text = readFileSync(join(PLUGIN, "hooks", file), "utf8");
      const literal = [...text.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]!);
      expect(literal.filter((name) => !builtins.has(name)), file).toEqual([]);
      expect(/\.node["'`]/.test(text), `${file} loads a native addon`).toBe(false);
      const imported = [...text.matchAll(/\bimport\s*\(\s*["'`]([^"'`]+)["'`]/g)].map((match) => match[1]!);
      expect(imported.filter((name) => !builtins.has(name)), `${file} imports a package`).toEqual([]);
    }
  });

  it("carries the command as the CLI is built, needing nothing but node's built-ins and its own files", () => {
    const own = new Set(["./inject.cjs", "./inject-grow.cjs", "./inject-yaml.cjs"]);
    for (const [file] of COMMAND_FILES) {
      const text = readFileSync(join(PLUGIN, "bin", file), "utf8");
      // require("…") and import("…") — not in a string (ajv, bundled with the MCP SDK, names its
      // runtime in the code it would write out: 'require("ajv/dist/runtime/equal").default') — and, in
      // the ES module, its import statements (`import{a as b}from"fs";`).
      const calls = /(?<!['"`])\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)|\bimport\s*\(\s*["'`]([^"'`]+)["'`]/g;
      const statements = /(?:^|[;}\n])\s*import\s*[^"'`();]*?\bfrom\s*["'`]([^"'`]+)["'`]/g;
      const named = [...[...text.matchAll(calls)].map((match) => (match[1] ?? match[2])!), ...(file.endsWith(".mjs") ? [...text.matchAll(statements)].map((match) => match[1]!) : [])];
      expect(named.filter((name) => !builtinModules.includes(name.replace(/^node:/, "")) && !own.has(name)), file).toEqual([]);
      // A native addon: named above (a path ending in .node), or loaded by process.dlopen.
      expect(text.includes("dlopen"), `${file} loads a native addon`).toBe(false);
    }
    // Claude Code puts bin/ on the PATH of its Bash tool: only the command's names are commands there.
    const executable = readdirSync(join(PLUGIN, "bin")).filter((name) => (statSync(join(PLUGIN, "bin", name)).mode & 0o111) !== 0);
    expect(executable.sort()).toEqual(["iflow-memory", "iflow-memory.cjs", "iflow-memory.mjs"]);
  });

  it("runs the command from a copy of the plugin elsewhere, by each of its names, as the CLI runs it", async () => {
    const base = makeTempDir();
    const plugin = join(base, "plugin");
    cpSync(PLUGIN, plugin, { recursive: true });
    const project = copyCorpus("iflow-kb-2026-04", base);
    const env = { HOME: join(base, "home"), IFLOW_MEMORY_HOME: join(base, "store") };
    mkdirSync(env.IFLOW_MEMORY_HOME);
    const inject = ["inject", "--project-root", project, "--global-store", join(CORPORA_DIR, "global-store-example"), "--no-tracking"];
    const expected = await runNode(CLI_BIN, inject, { env: { ...env, IFLOW_MEMORY_HOME: join(base, "other-store") }, cwd: base });
    expect(expected.stdout).toContain("## Engineering Memory");
    for (const entry of ["bin/iflow-memory.cjs", "bin/iflow-memory.mjs"]) {
      const command = join(plugin, entry);
      expect((await runNode(command, ["--version"], { env, cwd: base })).stdout).toBe((await runNode(CLI_BIN, ["--version"], { env, cwd: base })).stdout);
      // Worked out (inject.cjs), then printed as saved.
      for (let run = 0; run < 2; run++) expect(await runNode(command, inject, { env, cwd: base }), entry).toMatchObject({ code: 0, stdout: expected.stdout, stderr: "" });
      // Everything else, in run.mjs.
      const listed = await runNode(command, ["list", "--scope", "local", "--project-root", project, "--json"], { env, cwd: base });
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(265);
    }
  });

  it("keeps V8's code cache per install: two copies of it sharing one store each start from their own, not from the other's", async () => {
    const base = makeTempDir();
    const copies = ["one", "two"].map((name) => {
      const plugin = join(base, name);
      cpSync(PLUGIN, plugin, { recursive: true });
      return plugin;
    });
    const project = copyCorpus("iflow-kb-2026-04", base);
    mkdirSync(join(project, ".git"));
    const home = join(base, "home");
    const cacheDir = join(home, ".claude/iflow/memory/.cache");
    mkdirSync(cacheDir, { recursive: true });
    let session = 0;
    const start = (plugin: string) =>
      runNode(join(plugin, "hooks/session-start.cjs"), [], { stdin: JSON.stringify({ session_id: `two-installs-${++session}`, cwd: project, hook_event_name: "SessionStart", source: "startup" }), env: { HOME: home }, cwd: project });
    // --verbose: no saved output, so inject.cjs is loaded at every run.
    const inject = (plugin: string) => runNode(join(plugin, "bin/iflow-memory.cjs"), ["inject", "--project-root", project, "--no-tracking", "--verbose"], { env: { HOME: home }, cwd: project });
    const codeCaches = () => Object.fromEntries(readdirSync(cacheDir).filter((name) => name.startsWith("code-")).map((name) => [name, statSync(join(cacheDir, name)).mtimeMs]));
    const runs: Array<[number | null, string]> = [];
    for (const plugin of copies) for (const run of [await start(plugin), await inject(plugin)]) runs.push([run.code, run.stderr.split("\n")[0]!]);
    const written = codeCaches();
    // Taken again by each copy: none written again (a cache rejected is written again as its process exits).
    for (const plugin of copies) for (const run of [await start(plugin), await inject(plugin)]) runs.push([run.code, run.stderr.split("\n")[0]!]);
    expect(runs.map(([code]) => code)).toEqual(runs.map(() => 0));
    expect(codeCaches()).toEqual(written);
    expect(Object.keys(written).filter((name) => /^code-(session-start-run|inject)-[0-9a-f]{8}\.bin$/.test(name))).toHaveLength(4);
  });

  it("keeps the YAML parser in a file of its own, which the preparation and the command's inject require only to read a config file", async () => {
    // A name of the parser's own error class, found in its code alone.
    const holdsYaml = (path: string) => readFileSync(path, "utf8").includes("YAMLParseError");
    expect(BUNDLE_FILES.filter((name) => holdsYaml(join(PLUGIN, "hooks", name)))).toEqual(["session-start-yaml.cjs"]);
    expect(readFileSync(join(PLUGIN, "hooks/session-start-prepare.cjs"), "utf8")).toContain('require("./session-start-yaml.cjs")');
    expect(["bin.cjs", "inject.cjs", "inject-grow.cjs", "inject-yaml.cjs"].filter((name) => holdsYaml(join(REPO_ROOT, "packages/cli/dist", name)))).toEqual(["inject-yaml.cjs"]);
    // Required from a copy of the plugin elsewhere, beside the preparation: a config file is read.
    const base = makeTempDir();
    const plugin = join(base, "plugin");
    cpSync(PLUGIN, plugin, { recursive: true });
    const project = copyCorpus("iflow-kb-2026-04", base);
    mkdirSync(join(project, ".git"));
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 2\nmemory_injection_index: false\n---\n");
    const stdin = JSON.stringify({ session_id: "yaml", cwd: project, hook_event_name: "SessionStart", source: "startup" });
    const run = await runNode(join(plugin, "hooks/session-start.cjs"), [], { stdin, cwd: project, env: { HOME: join(base, "home"), IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect(run.stderr).toBe("");
    const context = (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context.match(/^### \w+[-\w]*: /gm)).toHaveLength(2);
    // Without that file (a copy made in part), the session starts without memory, said in one line.
    rmSync(join(plugin, "hooks/session-start-yaml.cjs"));
    const broken = await runNode(join(plugin, "hooks/session-start.cjs"), [], { stdin, cwd: project, env: { HOME: join(base, "home"), IFLOW_MEMORY_HOOK_CACHE: "0" } });
    expect([broken.code, broken.stdout, broken.stderr]).toEqual([0, "", "iflow-memory: failed (Cannot find module './session-start-yaml.cjs'); the session starts without memory\n"]);
  });

  it("is ASCII, as the command's inject bundle is: a non-ASCII character makes V8 hold a whole bundle as two-byte text, slower to read and to compile at every start", () => {
    const files = [...BUNDLE_FILES.map((name) => join(PLUGIN, "hooks", name)), join(PLUGIN, "mcp/mcp-server.cjs"), ...["bin.cjs", "inject.cjs", "inject-grow.cjs", "inject-yaml.cjs"].map((name) => join(REPO_ROOT, "packages/cli/dist", name))];
    for (const file of files) {
      const text = readFileSync(file, "latin1");
      const at = text.search(/[^\x00-\x7f]/);
      expect(at < 0 ? "" : text.slice(Math.max(0, at - 60), at + 20), `${file} holds a non-ASCII byte here`).toBe("");
    }
  });

  it("carries none of the JSON-with-comments editor the store has for setup (jsonc-parser, whose modules run code as they load)", () => {
    // A name of jsonc-parser's SyntaxKind enum, which its scanner sets up as it loads.
    for (const file of [...BUNDLE_FILES.map((name) => join(PLUGIN, "hooks", name)), join(PLUGIN, "mcp/mcp-server.cjs")]) {
      expect(readFileSync(file, "utf8").includes("OpenBraceToken"), file).toBe(false);
    }
    // The command, whose setup uses it, does (in the rest of the command line, which setup is in).
    expect(readFileSync(join(PLUGIN, "bin/run.mjs"), "utf8").includes("OpenBraceToken")).toBe(true);
  });

  it("gives, from a copy outside the repository, the same output as iflow-memory hook session-start", async () => {
    const base = makeTempDir();
    const plugin = join(base, "plugin");
    cpSync(PLUGIN, plugin, { recursive: true });
    const project = copyCorpus("iflow-kb-2026-04", base);
    mkdirSync(join(project, ".git"));
    const home = join(base, "home");
    cpSync(join(CORPORA_DIR, "global-store-example"), join(home, ".claude/iflow/memory"), { recursive: true });
    // Two sessions: a second start of one session is taken for a second route's hook, and prints nothing.
    const stdin = (session: string) => JSON.stringify({ session_id: session, transcript_path: join(base, "t.jsonl"), cwd: project, hook_event_name: "SessionStart", source: "startup" });
    const env = { HOME: home, CLAUDE_PLUGIN_ROOT: plugin, IFLOW_MEMORY_HOOK_CACHE: "0" };
    // As hooks.json registers it: with the MCP server of the plugin's .mcp.json beside it.
    expect(JSON.stringify(JSON.parse(readFileSync(join(plugin, "hooks/hooks.json"), "utf8")))).toContain('session-start.cjs\\" --mcp"');
    const fromPlugin = await runNode(join(plugin, "hooks/session-start.cjs"), ["--mcp"], { stdin: stdin("abc"), env, cwd: base });
    const fromCli = await runNode(CLI_BIN, ["hook", "session-start", "--mcp"], { stdin: stdin("def"), env, cwd: base });
    expect(fromPlugin.code).toBe(0);
    expect(fromPlugin.stdout).toBe(fromCli.stdout);
    expect(fromPlugin.stdout).toContain('"hookEventName":"SessionStart"');
  });
});
