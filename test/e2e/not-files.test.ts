import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, HOOK_BIN, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

// What an adversary can put where a memory file is read. The hook used to wait on each of these
// until Claude Code killed it (10 s), and `iflow-memory list` forever; here a run is killed after
// 5 s, well past the hook's 2 s deadline, and a killed run fails its test.
const TIMEOUT_MS = 5_000;

interface Paths {
  projectRoot: string;
  bank: string;
  config: string;
  store: string;
}

const ROWS: Array<{ what: string; list: boolean; arrange: (paths: Paths) => void; warnings: (paths: Paths) => string[] }> = [
  {
    what: "heuristics.md is a FIFO",
    list: true,
    arrange: ({ bank }) => execFileSync("mkfifo", [join(bank, "heuristics.md")]),
    warnings: ({ bank }) => [`${join(bank, "heuristics.md")}: is a FIFO, not a file; skipped`],
  },
  {
    what: "bank files are symbolic links to /dev/zero and /dev/urandom",
    list: true,
    arrange: ({ bank }) => {
      symlinkSync("/dev/zero", join(bank, "anti-patterns.md"));
      symlinkSync("/dev/urandom", join(bank, "heuristics.md"));
    },
    warnings: ({ bank }) => [`${join(bank, "anti-patterns.md")}: is a character device, not a file; skipped`, `${join(bank, "heuristics.md")}: is a character device, not a file; skipped`],
  },
  {
    what: ".claude/iflow-dev.local.md is a FIFO",
    list: false,
    arrange: ({ config }) => {
      mkdirSync(join(config, ".."));
      execFileSync("mkfifo", [config]);
    },
    warnings: ({ config }) => [`${config}: is a FIFO, not a file; skipped`],
  },
  {
    what: "global-store files are a FIFO and a symbolic link to /dev/zero",
    list: true,
    arrange: ({ store }) => {
      execFileSync("mkfifo", [join(store, "patterns.md")]);
      symlinkSync("/dev/zero", join(store, "heuristics.md"));
    },
    warnings: ({ store }) => [`${join(store, "patterns.md")}: is a FIFO, not a file; skipped`, `${join(store, "heuristics.md")}: is a character device, not a file; skipped`],
  },
];

/** A project and a temporary HOME whose global store holds one readable entry each, and what `arrange` adds. */
function workspace(arrange: (paths: Paths) => void = () => undefined) {
  const base = makeTempDir();
  const home = join(base, "home");
  const projectRoot = join(base, "webshop");
  const paths = {
    projectRoot,
    bank: join(projectRoot, "docs/knowledge-bank"),
    config: join(projectRoot, ".claude/iflow-dev.local.md"),
    store: join(home, ".claude/iflow/memory"),
  };
  mkdirSync(join(projectRoot, ".git"), { recursive: true });
  mkdirSync(paths.bank, { recursive: true });
  mkdirSync(paths.store, { recursive: true });
  writeFileSync(join(paths.bank, "patterns.md"), "### Pattern: Small Steps\nCommit often; a small diff is a reviewed diff.\n- Observation count: 2\n");
  writeFileSync(join(paths.store, "anti-patterns.md"), "### Anti-Pattern: Silent Catch\nAn empty catch block hides the failure that matters.\n- Observation count: 3\n");
  arrange(paths);
  return { home, paths };
}

async function hook(home: string, projectRoot: string) {
  const stdin = JSON.stringify({ session_id: "s1", cwd: projectRoot, hook_event_name: "SessionStart", source: "startup" });
  const result = await runNode(HOOK_BIN, [], { stdin, env: { HOME: home }, timeoutMs: TIMEOUT_MS });
  const output = result.stdout === "" ? null : (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  return { ...result, output };
}

const stderrOf = (warnings: string[]) => warnings.map((warning) => `iflow-memory: warning: ${warning}\n`).join("");

describe.runIf(process.platform !== "win32")("memory files that are not files, as the hook and the CLI meet them", () => {
  it.each(ROWS)("the hook skips them with a one-line warning each, injects the rest and exits 0 ($what)", async ({ arrange, warnings }) => {
    const { home, paths } = workspace(arrange);
    const result = await hook(home, paths.projectRoot);
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({ code: 0, signal: null, stderr: stderrOf(warnings(paths)) });
    expect(result.output).toContain("### Pattern: Small Steps\n");
    expect(result.output).toContain("### Anti-Pattern: Silent Catch\n");
  });

  it.each(ROWS.filter((row) => row.list))("`iflow-memory list` skips them with the same warnings and lists the rest ($what)", async ({ arrange, warnings }) => {
    const { home, paths } = workspace(arrange);
    const result = await runNode(CLI_BIN, ["list", "--project-root", paths.projectRoot, "--json"], { env: { HOME: home }, timeoutMs: TIMEOUT_MS });
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({ code: 0, signal: null, stderr: stderrOf(warnings(paths)) });
    expect((JSON.parse(result.stdout) as Array<{ name: string; scope: string }>).map((entry) => [entry.scope, entry.name])).toEqual([
      ["global", "Silent Catch"],
      ["local", "Small Steps"],
    ]);
  });

  it("the hook uses the defaults, with one warning, for a config that is a YAML alias bomb, and injects the memory", async () => {
    // Nine levels of nine aliases: some 387 million strings if the parser expanded them. The
    // limit of 0 it also sets must not apply: a refused config is the defaults.
    const bomb = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]", ...Array.from({ length: 9 }, (_, level) => `a${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(", ")}]`)];
    const { home, paths } = workspace(({ config }) => {
      mkdirSync(join(config, ".."));
      writeFileSync(config, `---\nmemory_injection_limit: 0\n${bomb.join("\n")}\n---\n`);
    });
    const result = await hook(home, paths.projectRoot);
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: stderrOf([`${paths.config}:1: invalid YAML (Excessive alias count indicates a resource exhaustion attack); using the defaults`]),
    });
    expect(result.output).toContain("### Pattern: Small Steps\n");
    expect(result.output).toContain("### Anti-Pattern: Silent Catch\n");
  });
});
