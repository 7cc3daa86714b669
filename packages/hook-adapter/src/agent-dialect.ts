import type { HookEventInput } from "./hook-runtime.js";

/** The agents iflow-memory's hooks serve. */
export type AgentName = "claude" | "codex" | "gemini";

/** The agents, in the order `setup` lists them. */
export const AGENT_NAMES: readonly AgentName[] = ["claude", "codex", "gemini"];

/** Which of our two hooks: the session's start, or a submitted prompt. */
export type HookKind = "session-start" | "prompt";

/**
 * How one agent speaks to a hook: what its events are called, where its stdin keeps the session
 * id, folder, prompt and start source, and what it reads back as added context.
 */
export interface AgentDialect {
  agent: AgentName;
  /** The agent's own name for each of our hooks' events. */
  events: Record<HookKind, string>;
  /** The agent's stdin, in Claude Code's field names (the runtime's). */
  readInput(raw: Record<string, unknown>): HookEventInput;
  /** What the hook prints for `context` added at `kind`: one line of JSON. */
  formatOutput(kind: HookKind, context: string): string;
}

// Claude Code's shape, which Codex CLI copies field for field (its schema allows no other keys).
const hookSpecificOutput = (events: Record<HookKind, string>) => (kind: HookKind, context: string) =>
  `${JSON.stringify({ hookSpecificOutput: { hookEventName: events[kind], additionalContext: context } })}\n`;

const claudeEvents = { "session-start": "SessionStart", prompt: "UserPromptSubmit" } as const;
const geminiEvents = { "session-start": "SessionStart", prompt: "BeforeAgent" } as const;

const DIALECTS: Record<AgentName, AgentDialect> = {
  claude: { agent: "claude", events: claudeEvents, readInput: (raw) => raw, formatOutput: hookSpecificOutput(claudeEvents) },
  // Codex CLI: stdin `{ session_id, cwd, hook_event_name, source, prompt, turn_id, model, … }`.
  codex: { agent: "codex", events: claudeEvents, readInput: (raw) => raw, formatOutput: hookSpecificOutput(claudeEvents) },
  // Gemini CLI: stdin `{ session_id, cwd, hook_event_name, timestamp, source | prompt }`; its
  // prompt event is BeforeAgent. Some of its documentation calls the start's source `trigger`.
  // Run with -p, it hands BeforeAgent the prompt with the SessionStart context prepended
  // (`<hook_context>…</hook_context>\n\n` + the prompt): the prompt is what follows it.
  gemini: {
    agent: "gemini",
    events: geminiEvents,
    readInput: (raw) => ({
      ...raw,
      hook_event_name: raw.hook_event_name === "BeforeAgent" ? "UserPromptSubmit" : raw.hook_event_name,
      source: raw.source ?? raw.trigger,
      ...(typeof raw.prompt === "string" ? { prompt: withoutHookContext(raw.prompt) } : {}),
    }),
    formatOutput: hookSpecificOutput(geminiEvents),
  },
};

function withoutHookContext(prompt: string): string {
  if (!prompt.startsWith("<hook_context>")) return prompt;
  const end = prompt.indexOf("</hook_context>");
  return end < 0 ? prompt : prompt.slice(end + "</hook_context>".length).replace(/^\s+/, "");
}

/**
 * The dialect of an agent, named by the `--agent` flag of the registered command (never guessed
 * from the input: a wrong guess would put the memory where the agent does not read it).
 *
 * @example
 * agentDialect("gemini").formatOutput("prompt", "## Memory");
 * // '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"## Memory"}}\n'
 */
export function agentDialect(agent: AgentName = "claude"): AgentDialect {
  return DIALECTS[agent];
}

/**
 * The agent named by `--agent NAME` (or `--agent=NAME`) in a hook's arguments: Claude Code when
 * absent; null when it names an agent we do not know.
 *
 * @example
 * agentFromArguments(["--mcp", "--agent", "codex"]); // "codex"
 */
export function agentFromArguments(args: readonly string[]): AgentName | null {
  let value: string | undefined = "claude";
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--agent") value = args[index + 1];
    else if (arg.startsWith("--agent=")) value = arg.slice("--agent=".length);
  }
  return isAgentName(value) ? value : null;
}

/** Whether `value` names an agent iflow-memory serves. */
export function isAgentName(value: unknown): value is AgentName {
  return typeof value === "string" && (AGENT_NAMES as readonly string[]).includes(value);
}
