import { Readable, Writable } from "node:stream";
import { isAgentName, runSessionStartHook, runUserPromptSubmitHook } from "@iflow-memory/hook-adapter";
import { prepareSessionInjection } from "@iflow-memory/store";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { RuntimeError, UsageError } from "./errors.js";
import { injectCommand, type InjectOptions } from "./inject-command.js";
import { registerLessonsCommands } from "./lessons-commands.js";
import { registerManageCommands } from "./manage-commands.js";
import { registerPromoteCommand } from "./promote-command.js";
import { searchCommand, type SearchOptions } from "./search-command.js";
import { registerSetupCommand } from "./setup-command.js";
import { registerUiCommand } from "./ui-command.js";
import { printableIO, reportFailure, type CliIO } from "./io.js";
import { wholeNumber } from "./whole-number.js";

declare const __IFLOW_MEMORY_VERSION__: string;
const VERSION = typeof __IFLOW_MEMORY_VERSION__ === "string" ? __IFLOW_MEMORY_VERSION__ : "0.0.0-dev";

/**
 * The `iflow-memory` command, in-process: parses `io.argv` (without "node" and the script),
 * runs the command and returns its exit code — 0 success, 1 runtime failure, 2 usage error.
 * Failures are one line on stderr; a stack trace only with `--debug`.
 *
 * @example
 * const code = await run({ argv: ["inject", "--project-root", "."], stdin: process.stdin,
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
 */
export async function run(io: CliIO): Promise<number> {
  const debug = io.argv.includes("--debug");
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(io.argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; commander has already printed its one-line error otherwise.
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportFailure(error, io, debug);
  }
}

function buildProgram(raw: CliIO, setExitCode: (code: number) => void): Command {
  // What the commands print for a person goes through printableIO; the hooks and the MCP server
  // speak JSON (which escapes control characters) on the raw streams.
  const io = printableIO(raw);
  const program = new Command("iflow-memory")
    .description("Persistent, cross-project engineering memory for AI coding agents.")
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .addOption(new Option("--debug", "print stack traces on failure").hideHelp())
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`iflow-memory: ${text.replace(/^error: /, "").trimEnd()} (see iflow-memory --help)\n`),
    });

  program
    .command("inject")
    .description("print the memory block a session would get (a drop-in for the original memory.py)")
    .option("--project-root <dir>", "the project (default: the nearest folder above the current one with .git or docs/knowledge-bank)")
    .option("--limit <n>", "entries at most; 0 none, -1 no limit (default: memory_injection_limit from the config, else 20)", (value) => parseInteger(value, -1, "--limit"))
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--max-chars <n>", "keep the block within N characters, dropping whole lowest-priority entries (default: memory_injection_max_chars when the config sets it)", (value) => parseInteger(value, 1, "--max-chars"))
    .option("--no-tracking", "do not write .last-injection.json")
    .option("--json", "print the selected entries as JSON instead of markdown")
    .option("--verbose", "also report files in the knowledge bank that are not read")
    .option("--query <text>", "only the entries relevant to this context, best first, as the hooks choose them (relevance floor included)")
    .addOption(
      new Option("--index [fetch]", "also the index of the entries not shown in full (hash and title), as a session start gives it; its heading names FETCH, cli (iflow-memory show) or mcp (get_memory)")
        .choices(["cli", "mcp"])
        .preset("cli"),
    )
    .option("--ignore-config", "use none of the project's .claude/iflow-dev.local.md: print the block even when memory_injection_enabled is false, without its limit or budget")
    .action(async (options: InjectOptions) => setExitCode(await injectCommand(options, io)));

  program
    .command("search")
    .description("local and global entries ranked for a query, best first (the hooks' ranking; every entry holding a word of the query)")
    .argument("<query...>", "what to search for")
    .option("--project-root <dir>", "the project (default: the nearest folder above the current one with .git or docs/knowledge-bank)")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--limit <n>", "results at most; -1 all", (value) => parseInteger(value, -1, "--limit"), 10)
    .option("--json", "print the results as a JSON array in rank order")
    .option("--explain", "also show why: the matched terms and the parts of the score")
    .action(async (words: string[], options: SearchOptions) => setExitCode(await searchCommand(words, options, io)));

  program
    .command("mcp")
    .description("serve memory to an agent over MCP (stdio): search_memory, store_memory, get_memory, list_memories, forget_memory, record_feedback")
    .option("--project-root <dir>", "the project (default: the client's first root, else the nearest folder above the current one with .git or docs/knowledge-bank)")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .action(async (options: { projectRoot?: string; globalStore?: string }) => {
      const stdin = raw.stdin instanceof Readable ? raw.stdin : Readable.from(raw.stdin);
      const stdout = raw.stdout instanceof Writable ? raw.stdout : new Writable({ write: (chunk: Buffer, _encoding, callback) => void raw.stdout.write(chunk.toString("utf8"), () => callback()) });
      // The MCP SDK, zod and ajv (some 1.5 MB) load only for the command that serves MCP.
      const { runMcpServer } = await import("@iflow-memory/mcp-server");
      await runMcpServer({ stdin, stdout, stderr: io.stderr, env: io.env, cwd: io.cwd }, { projectRoot: options.projectRoot, globalStoreDir: options.globalStore });
      setExitCode(0);
    });

  registerPromoteCommand(program, io, setExitCode);
  registerManageCommands(program, io, setExitCode);
  registerSetupCommand(program, io, setExitCode);
  registerLessonsCommands(program, io, setExitCode);
  registerUiCommand(program, io, setExitCode, (value) => {
    const port = parseInteger(value, 0, "--port");
    if (port > 65_535) throw new InvalidArgumentError(`--port takes a whole number from 0 to 65535, not "${value}".`);
    return port;
  });

  const hook = program.command("hook").description("run as an agent hook");
  // A hook registered with an agent we do not know prints nothing and exits 0: it never breaks a session.
  const runAs = async (run: typeof runSessionStartHook, options: { mcp?: boolean; agent?: string }) => {
    if (options.agent !== undefined && !isAgentName(options.agent)) {
      io.stderr.write(`iflow-memory: --agent takes claude, codex or gemini, not "${options.agent}"; nothing injected (run \`iflow-memory setup <agent>\` again to register the hook anew)\n`);
      return setExitCode(0);
    }
    // The hooks speak JSON (which escapes control characters) on the raw streams.
    setExitCode(await run({ ...raw, prepare: prepareSessionInjection, fetch: options.mcp === true ? "mcp" : "cli", ...(options.agent === undefined ? {} : { agent: options.agent }) }));
  };
  hook
    .command("session-start")
    .description("SessionStart hook (Claude Code; Codex CLI and Gemini CLI with --agent): reads the hook JSON on stdin, prints additionalContext; never blocks a session")
    .option("--mcp", "the iflow-memory MCP server is registered too: the block's index names its tools")
    .option("--agent <name>", "the agent that runs the hook: claude (default), codex or gemini")
    .action(async (options: { mcp?: boolean; agent?: string }) => runAs(runSessionStartHook, options));
  hook
    .command("user-prompt-submit")
    .description("UserPromptSubmit hook (Claude Code, Codex CLI; Gemini CLI's BeforeAgent with --agent gemini): adds the entries relevant to the prompt that the session has not been given; never blocks a prompt")
    .option("--mcp", "the iflow-memory MCP server is registered too: the block's index names its tools")
    .option("--agent <name>", "the agent that runs the hook: claude (default), codex or gemini")
    .action(async (options: { mcp?: boolean; agent?: string }) => runAs(runUserPromptSubmitHook, options));

  return program;
}

function parseInteger(value: string, minimum: number, flag: string): number {
  const number = wholeNumber(value, minimum);
  if (number === null) throw new InvalidArgumentError(`${flag} takes a whole number of ${minimum} or more, not "${value}".`);
  return number;
}

export { RuntimeError, UsageError };
