import { execFileSync, spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { makeTempDir, PROMPT_HOOK_BIN, REPO_ROOT, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { extractShellExamples, matchesShown, type ShellExample } from "./shell-examples.js";

// Every shell example of the README, run as written from the repository (a fresh clone after
// `install` and `build`) with `iflow-memory` on the PATH, in a temporary HOME (and npm prefix),
// its output compared with the one shown. What an example's prose says it needs (the demo global
// store installed, a recorded prompt, a copy of the demo project in git) is set up first; `/tmp/`
// in a command is a fresh scratch folder, so that runs side by side never meet.

const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const EXAMPLES = extractShellExamples(README).filter((example) => example.steps.length > 0);
const PNPM = "npx -y pnpm@10.34.8";

/** Commands not run here, and why: the setup these tests stand on, or what would run the tests or rewrite the repository. */
const NOT_RUN: Array<[RegExp, string]> = [
  [new RegExp(`^${escape(PNPM)} (install|build)\\b`), "the documented setup every test runs after"],
  [new RegExp(`^${escape(PNPM)} test\\b`), "runs these tests: .ci/run runs it on a fresh clone"],
  [new RegExp(`^${escape(PNPM)} (bench|eval:relevance|plugin:sync|screenshots)\\b`), "rewrites BENCHMARKS.md, the plugin folder or the screenshots, for minutes: run by hand"],
];

/** Output that differs at each run, made the same on both sides: times, the viewer's port and token. */
function steady(text: string): string {
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>").replace(/127\.0\.0\.1:\d+\/\?token=[\w-]+/g, "127.0.0.1:<port>/?token=<token>").replace(/on 127\.0\.0\.1 only/g, "on 127.0.0.1 only");
}

/** Commands that serve until stopped: given a few seconds, then SIGTERM, as Ctrl-C would. */
const SERVES = /^iflow-memory ui\b/;

interface Sandbox {
  home: string;
  scratch: string;
  cwd: string;
  env: Record<string, string>;
}

function sandbox(): Sandbox {
  const base = makeTempDir("iflow-memory-readme-");
  const home = join(base, "home");
  const scratch = join(base, "tmp");
  const bin = join(base, "bin");
  for (const folder of [home, scratch, bin]) mkdirSync(folder);
  // `iflow-memory` on the PATH, as the package's bin puts it there.
  symlinkSync(join(REPO_ROOT, "packages/cli/bin/iflow-memory.cjs"), join(bin, "iflow-memory"));
  const env = {
    PATH: [bin, join(base, "npm-global/bin"), dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
    HOME: home,
    NPM_CONFIG_PREFIX: join(base, "npm-global"),
    TMPDIR: scratch,
    LANG: "C.UTF-8",
  };
  return { home, scratch, cwd: REPO_ROOT, env };
}

/** What an example's prose (or its first command) says it runs on. */
async function prepare(example: ShellExample, box: Sandbox): Promise<void> {
  const first = example.steps[0]!.command;
  const context = example.context.replace(/\s+/g, " ");
  if (/installed as `~\/\.claude\/iflow\/memory`/.test(context)) installDemoStore(box.home);
  if (example.steps.some((step) => step.command.includes("/tmp/demo-project"))) demoProjectInGit(join(box.scratch, "demo-project"));
  const prompt = /After the prompt "([^"]+)" in session `(\w+)` of the demo project/.exec(context);
  if (prompt !== null) {
    const project = join(box.scratch, "demo-project");
    cpSync(join(REPO_ROOT, "examples/demo-project"), project, { recursive: true });
    const stdin = JSON.stringify({ session_id: prompt[2], cwd: project, hook_event_name: "UserPromptSubmit", prompt: prompt[1] });
    const hook = await runNode(PROMPT_HOOK_BIN, [], { stdin, env: { HOME: box.home } });
    expect(hook.code, hook.stderr).toBe(0);
  }
  if (/^iflow-memory lessons\b/.test(first)) {
    box.cwd = join(box.scratch, "project");
    mkdirSync(join(box.cwd, ".archeflow/events"), { recursive: true });
    const run = (runId: string, findings: Array<{ severity: string; description: string; category?: string }>) =>
      writeFileSync(
        join(box.cwd, `.archeflow/events/${runId}.jsonl`),
        [{ type: "run.start", data: {} }, { type: "review.verdict", data: { archetype: "guardian", verdict: findings.length === 0 ? "approved" : "needs_changes", findings } }, { type: "run.complete", data: {} }]
          .map((event, seq) => JSON.stringify({ run_id: runId, seq: seq + 1, ...event }))
          .join("\n") + "\n",
      );
    run("run-1", [{ severity: "bug", description: "Missing input validation on user endpoint", category: "code" }, { severity: "info", description: "Consider a shorter function" }]);
    run("run-2", [{ severity: "bug", description: "User endpoint accepts unvalidated input", category: "code" }]);
    run("run-3", [{ severity: "warning", description: "Flaky retry loop in the uploader", category: "code" }]);
  }
}

/** The demo global store as the global store, private as setup and promotion make it (0700, 0600). */
function installDemoStore(home: string): void {
  const store = join(home, ".claude/iflow/memory");
  cpSync(join(REPO_ROOT, "examples/demo-global-store"), store, { recursive: true });
  chmodSync(store, 0o700);
  for (const file of readdirSync(store)) chmodSync(join(store, file), 0o600);
}

/** A copy of the demo project in a git repository, on a branch about a double charge at checkout. */
function demoProjectInGit(project: string): void {
  cpSync(join(REPO_ROOT, "examples/demo-project"), project, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "--quiet", "--initial-branch", "main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Demo project");
  git("checkout", "--quiet", "-b", "fix/checkout-double-charge");
  writeFileSync(join(project, "checkout-client.ts"), "export const retries = { post: 0 };\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Send an idempotency key with the checkout POST");
}

/** Runs the example's commands in one shell, as a reader types them; each command's stdout, in order. */
function runExample(example: ShellExample, box: Sandbox): Promise<{ outputs: string[]; stderr: string; code: number | null }> {
  const marker = (index: number) => `@@@iflow-memory-readme-step-${index}@@@`;
  const script = example.steps
    .map((step, index) => {
      const command = step.command.replaceAll("/tmp/", `${box.scratch}/`);
      return `printf '\\n%s\\n' '${marker(index)}'\n${SERVES.test(command) ? `timeout -s TERM 4 ${command} || [ $? = 124 ]` : command}`;
    })
    .join("\n");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd: box.cwd, env: box.env, stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const outputs = example.steps.map((_, index) => {
        const start = stdout.indexOf(`\n${marker(index)}\n`);
        const next = stdout.indexOf(`\n${marker(index + 1)}\n`);
        return start < 0 ? "" : stdout.slice(start + marker(index).length + 2, next < 0 ? undefined : next);
      });
      resolve({ outputs, stderr, code });
    });
  });
}

/** The command as run: the quick start's `demo` is its package.json script after the build the tests stand on. */
function asRun(command: string): string {
  const demo = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts.demo as string;
  return command.replace(new RegExp(`^(?:${escape(PNPM)} install && )?${escape(PNPM)} demo\\b(.*)$`), (_, rest: string) => `${demo.replace(/^pnpm build && /, "")}${rest}`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("the README's shell examples", () => {
  it("are found: the quick start, setup, inject, promote, managing memory, history, ui, lessons, search and the MCP Inspector", () => {
    const firsts = EXAMPLES.map((example) => example.steps[0]!.command.split(" ").slice(0, 2).join(" "));
    for (const expected of ["npx -y", "iflow-memory setup", "iflow-memory inject", "iflow-memory promote", "iflow-memory list", "iflow-memory history", "iflow-memory ui", "iflow-memory lessons", "iflow-memory search"]) {
      expect(firsts, expected).toContain(expected);
    }
    expect(EXAMPLES.some((example) => example.steps.some((step) => step.command.includes("mcp-inspector-cli")))).toBe(true);
  });

  it.each(EXAMPLES.map((example) => [`line ${example.line}: ${example.steps[0]!.command.split("\n")[0]}`, example] as const))("run as written: %s", async (_title, example) => {
    const box = sandbox();
    await prepare(example, box);
    const steps = example.steps.map((step) => ({ ...step, command: asRun(step.command) }));
    const skipped = steps.map((step) => NOT_RUN.find(([pattern]) => pattern.test(step.command))?.[1] ?? null);
    const runnable = { ...example, steps: steps.filter((_, index) => skipped[index] === null) };
    if (runnable.steps.length === 0) return; // every command of it is one of NOT_RUN, with its reason
    const { outputs, stderr, code } = await runExample(runnable, box);
    expect(code, `exit ${code}; stderr:\n${stderr}`).toBe(0);
    runnable.steps.forEach((step, index) => {
      if (step.shown === null) return;
      // The README writes the temporary HOME as `~`, the checkout as /path/to/iflow-memory.
      const shown = steady(step.shown.replaceAll("/tmp/", `${box.scratch}/`).replaceAll("/path/to/iflow-memory", REPO_ROOT));
      const actual = steady(outputs[index]!.replaceAll(`${box.home}/`, "~/").replaceAll(`${box.home}\n`, "~\n"));
      expect(matchesShown(shown, actual), `$ ${step.command}\n--- shown in the README (line ${example.line}) ---\n${shown}\n--- printed ---\n${actual}\n--- stderr ---\n${stderr}`).toBe(true);
    });
  });
});
