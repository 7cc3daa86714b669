import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prepareSessionInjection, type HistoryRecord } from "@iflow-memory/store";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { agentDialect, agentFromArguments, type AgentName } from "./agent-dialect.js";
import type { HookIO } from "./hook-runtime.js";
import { runSessionStartHook } from "./run-session-start-hook.js";
import { runUserPromptSubmitHook } from "./run-user-prompt-submit-hook.js";

describe("agentDialect", () => {
  it("reads Codex CLI's stdin as it comes: Claude Code's field names", () => {
    // codex-rs/hooks/schema/generated/session-start.command.input.schema.json
    const stdin = { session_id: "019d036d-c7fa", transcript_path: null, cwd: "/work/webshop", hook_event_name: "SessionStart", model: "gpt-5.5", permission_mode: "default", source: "resume" };
    expect(agentDialect("codex").readInput(stdin)).toEqual(stdin);
  });

  it("reads Gemini CLI's BeforeAgent as the prompt event and its trigger as the source when it has no source", () => {
    const prompt = { session_id: "g-1", transcript_path: "/t.json", cwd: "/work/webshop", hook_event_name: "BeforeAgent", timestamp: "2026-11-24T10:00:00.000Z", prompt: "fix the retry" };
    expect(agentDialect("gemini").readInput(prompt)).toEqual({ ...prompt, hook_event_name: "UserPromptSubmit", source: undefined });
    const start = { session_id: "g-1", cwd: "/work/webshop", hook_event_name: "SessionStart", timestamp: "2026-11-24T10:00:00.000Z", trigger: "clear" };
    expect(agentDialect("gemini").readInput(start)).toEqual({ ...start, source: "clear" });
    expect(agentDialect("gemini").readInput({ ...start, source: "resume" }).source).toBe("resume");
  });

  it("takes Gemini CLI's prompt without the session start's context that gemini -p prepends to it", () => {
    const prepended = { hook_event_name: "BeforeAgent", prompt: "<hook_context>## Engineering Memory\n\n### Pattern: Small Steps\n</hook_context>\n\nfix the retry" };
    expect(agentDialect("gemini").readInput(prepended).prompt).toBe("fix the retry");
    expect(agentDialect("gemini").readInput({ prompt: "why is <hook_context> in the log?" }).prompt).toBe("why is <hook_context> in the log?");
    expect(agentDialect("codex").readInput(prepended).prompt).toBe(prepended.prompt);
  });

  it("prints Claude Code's output exactly as before, Codex CLI's the same, and Gemini CLI's prompt context under BeforeAgent", () => {
    expect(agentDialect().formatOutput("session-start", "## M\n")).toBe('{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"## M\\n"}}\n');
    expect(agentDialect("claude").formatOutput("prompt", "x")).toBe('{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}\n');
    expect(agentDialect("codex").formatOutput("prompt", "x")).toBe('{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}\n');
    expect(agentDialect("gemini").formatOutput("session-start", "x")).toBe('{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}\n');
    expect(agentDialect("gemini").formatOutput("prompt", "x")).toBe('{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"x"}}\n');
  });
});

describe("agentFromArguments", () => {
  it("takes the agent the registered command names, Claude Code when it names none, and null for an unknown one", () => {
    expect([
      agentFromArguments([]),
      agentFromArguments(["--mcp"]),
      agentFromArguments(["--agent", "codex", "--mcp"]),
      agentFromArguments(["--mcp", "--agent=gemini"]),
      agentFromArguments(["--agent", "cursor"]),
      agentFromArguments(["--agent"]),
    ]).toEqual(["claude", "claude", "codex", "gemini", null, null]);
  });
});

const PROMPT = "the checkout client retries a POST after a timeout and charged a card twice";

// The demo bank, at a limit of one entry per session start: the prompt then has something of its own to add.
function project(): { projectRoot: string; home: string } {
  const base = makeTempDir();
  const projectRoot = join(base, "webshop");
  mkdirSync(join(projectRoot, ".git"), { recursive: true });
  mkdirSync(join(projectRoot, ".claude"));
  cpSync(join(REPO_ROOT, "examples/demo-project/docs/knowledge-bank"), join(projectRoot, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(projectRoot, ".claude/iflow-dev.local.md"), "---\nmemory_injection_limit: 1\n---\n");
  return { projectRoot, home: join(base, "home") };
}

async function runAs(agent: AgentName | undefined, hook: typeof runSessionStartHook, stdin: Record<string, unknown>, where: { projectRoot: string; home: string }) {
  let stdout = "";
  let stderr = "";
  const io: HookIO = {
    prepare: prepareSessionInjection,
    stdin: (async function* () {
      yield JSON.stringify(stdin);
    })(),
    stdout: { write: (text: string, callback?: () => void) => ((stdout += text), callback?.(), true) },
    stderr: { write: (text: string) => ((stderr += text), true) },
    env: { HOME: where.home, IFLOW_MEMORY_HOOK_CACHE: "0" },
    cwd: "/",
    gatherSignals: async () => ({ project: "webshop", branch: null, changedFiles: [], commitSubjects: [], feature: null, stack: [], skipped: [] }),
    ...(agent === undefined ? {} : { agent }),
  };
  const code = await hook(io);
  return { code, stdout, stderr };
}

function history(home: string): HistoryRecord[] {
  return readFileSync(join(home, ".claude/iflow/memory/.history.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as HistoryRecord);
}

describe("runSessionStartHook and runUserPromptSubmitHook, per agent", () => {
  it("injects at a Codex CLI session start and prompt in Codex's shape, and records the agent", async () => {
    const where = project();
    const base = { session_id: "019d036d-c7fa", transcript_path: null, cwd: where.projectRoot, model: "gpt-5.5", permission_mode: "default" };
    const start = await runAs("codex", runSessionStartHook, { ...base, hook_event_name: "SessionStart", source: "startup" }, where);
    const prompt = await runAs("codex", runUserPromptSubmitHook, { ...base, hook_event_name: "UserPromptSubmit", turn_id: "019d036e-3164", prompt: PROMPT }, where);
    const started = JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    const prompted = JSON.parse(prompt.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect([start.code, started.hookSpecificOutput.hookEventName, Object.keys(started), Object.keys(started.hookSpecificOutput)]).toEqual([0, "SessionStart", ["hookSpecificOutput"], ["hookEventName", "additionalContext"]]);
    expect(started.hookSpecificOutput.additionalContext).toMatch(/^## Engineering Memory \(from knowledge bank\)\n/);
    expect([prompt.code, prompted.hookSpecificOutput.hookEventName]).toEqual([0, "UserPromptSubmit"]);
    expect(prompted.hookSpecificOutput.additionalContext).toContain("### Anti-Pattern: Retrying Non-Idempotent Requests\n");
    expect(history(where.home).map((record) => [record.agent, record.session, record.event])).toEqual([
      ["codex", "019d036d-c7fa", "startup"],
      ["codex", "019d036d-c7fa", "prompt"],
    ]);
  });

  it("injects at a Gemini CLI session start and BeforeAgent in Gemini's shape, and records the agent", async () => {
    const where = project();
    const base = { session_id: "gem-42", transcript_path: "/tmp/t.json", cwd: where.projectRoot, timestamp: "2026-11-24T10:00:00.000Z" };
    const start = await runAs("gemini", runSessionStartHook, { ...base, hook_event_name: "SessionStart", source: "startup" }, where);
    const prompt = await runAs("gemini", runUserPromptSubmitHook, { ...base, hook_event_name: "BeforeAgent", prompt: PROMPT }, where);
    const prompted = JSON.parse(prompt.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect((JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string } }).hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect([prompt.code, prompted.hookSpecificOutput.hookEventName, prompt.stderr]).toEqual([0, "BeforeAgent", ""]);
    expect(prompted.hookSpecificOutput.additionalContext).toContain("### Anti-Pattern: Retrying Non-Idempotent Requests\n");
    expect(history(where.home).map((record) => [record.agent, record.event])).toEqual([
      ["gemini", "startup"],
      ["gemini", "prompt"],
    ]);
  });

  it("prints nothing for a Gemini CLI start whose source the config does not inject at, and exits 0", async () => {
    const where = project();
    const run = await runAs("gemini", runSessionStartHook, { session_id: "gem-43", cwd: where.projectRoot, hook_event_name: "SessionStart", source: "compress" }, where);
    expect([run.code, run.stdout]).toEqual([0, ""]);
  });

  it("stays fail-open in every dialect: garbage on stdin gives exit 0 and a line on stderr", async () => {
    for (const agent of ["claude", "codex", "gemini"] as const) {
      let stderr = "";
      const io: HookIO = {
        prepare: async () => {
          throw new Error("unreadable");
        },
        stdin: (async function* () {
          yield "{not json";
        })(),
        stdout: { write: (_text: string, callback?: () => void) => (callback?.(), true) },
        stderr: { write: (text: string) => ((stderr += text), true) },
        env: { HOME: makeTempDir(), IFLOW_MEMORY_HOOK_CACHE: "0" },
        cwd: makeTempDir(),
        agent,
      };
      expect(await runUserPromptSubmitHook({ ...io, stdin: (async function* () { yield "{not json"; })() })).toBe(0);
      expect(await runSessionStartHook(io)).toBe(0);
      expect(stderr).toContain("stdin is not valid JSON");
    }
  });

  it("keeps the Claude Code record's agent as claude when no agent is named", async () => {
    const where = project();
    const run = await runAs(undefined, runSessionStartHook, { session_id: "c-1", cwd: where.projectRoot, hook_event_name: "SessionStart", source: "startup" }, where);
    expect(run.stdout.startsWith('{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"')).toBe(true);
    expect(history(where.home).map((record) => record.agent)).toEqual(["claude"]);
  });
});
