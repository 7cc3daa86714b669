import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { CATEGORIES, serializeEntry, type Category, type Entry } from "@iflow-memory/parser";
import {
  collectStats,
  contestGlobalEntries,
  diagnoseMemory,
  exportRules,
  findEntries,
  findProjectRoot,
  forgetGlobalEntry,
  listEntries,
  readFeedback,
  recordFeedback,
  readInjectionHistory,
  resolveGlobalStoreDir,
  tagGlobalEntry,
  type HistoryRecord,
  type ListScope,
} from "@iflow-memory/store";
import type { FeedbackSummary, SessionSignals } from "@iflow-memory/store";
import { Command, Option } from "commander";
import { RuntimeError, UsageError } from "./errors.js";
import { installChecks } from "./install-checks.js";
import { printer, type CliIO } from "./io.js";

interface Locations {
  projectRoot?: string;
  globalStore?: string;
}

/**
 * The memory management commands: list, show, forget, contest, tag, history, stats, doctor, export-rules.
 * Each takes --project-root and --global-store like inject; the store package does the work.
 */
export function registerManageCommands(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  const print = printer(io);
  const locate = async (options: Locations) => ({
    projectRoot: options.projectRoot === undefined ? await findProjectRoot(io.cwd) : resolve(io.cwd, options.projectRoot),
    globalStoreDir: resolveGlobalStoreDir({ flag: options.globalStore === undefined ? undefined : resolve(io.cwd, options.globalStore), env: io.env }),
  });
  const withLocations = (command: Command) =>
    command
      .option("--project-root <dir>", "the project (default: the nearest folder above the current one with .git or docs/knowledge-bank)")
      .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)");
  const warn = (warnings: string[]) => {
    for (const warning of warnings) io.stderr.write(`iflow-memory: warning: ${warning}\n`);
  };

  withLocations(program.command("list").description("list memory entries, in injection order"))
    .addOption(new Option("--scope <scope>", "local, global or all").choices(["local", "global", "all"]).default("all"))
    .addOption(new Option("--category <category>", "only this category").choices([...CATEGORIES]))
    .option("--json", "print the entries as JSON")
    .action(async (options: Locations & { scope: ListScope; category?: Category; json?: boolean }) => {
      const { entries, warnings } = await listEntries({ ...(await locate(options)), scope: options.scope, ...(options.category === undefined ? {} : { category: options.category }) });
      warn(warnings);
      if (options.json === true) io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      else if (entries.length === 0) io.stdout.write("No entries.\n");
      else for (const entry of entries) io.stdout.write(`sha256:${entry.contentHash}  ${entry.scope.padEnd(6)}  ${entry.category.padEnd(13)}  ×${String(entry.observationCount).padEnd(3)} ${entry.confidence.padEnd(6)}  ${entry.name}\n`);
      setExitCode(0);
    });

  withLocations(program.command("show").description("show one entry by content hash (or a prefix of 4+ hex digits) or by name"))
    .argument("<hash-or-name>", "sha256:…, the hash, a prefix of it, or the entry's name")
    .option("--json", "print the entry as JSON")
    .action(async (query: string, options: Locations & { json?: boolean }) => {
      const { entries, warnings } = await listEntries({ ...(await locate(options)), scope: "all" });
      warn(warnings);
      const found = findEntries(entries, query);
      if (found.length === 0) throw new RuntimeError("NOT_FOUND", `cannot show ${query}: no entry has that hash or name; see iflow-memory list`);
      if (found.length > 1 && new Set(found.map((entry) => entry.contentHash)).size > 1) {
        throw new RuntimeError("AMBIGUOUS", `cannot show ${query}: it matches ${found.length} entries (${found.map((entry) => `sha256:${entry.contentHash} ${entry.scope} "${entry.name}"`).join("; ")}); give more of the hash`);
      }
      const feedback = readFeedback((await locate(options)).globalStoreDir);
      if (options.json === true) io.stdout.write(`${JSON.stringify(found.map((entry) => ({ ...entry, feedback: feedback.get(entry.contentHash) ?? null })), null, 2)}\n`);
      else io.stdout.write(found.map((entry: Entry) => `${serializeEntry(entry)}(${entry.scope}, ${entry.origin.path}:${entry.origin.line}, sha256:${entry.contentHash})\n${formatFeedback(feedback.get(entry.contentHash))}`).join("\n"));
      setExitCode(0);
    });

  program
    .command("forget")
    .description("move a global entry to .archive.md in the store (never deleted)")
    .argument("<hash>", "sha256:…, the hash, a prefix of 4+ hex digits, or the name")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--json", "print what was archived as JSON")
    .action(async (query: string, options: Locations & { json?: boolean }) => {
      const { globalStoreDir } = await locate(options);
      const entry = await forgetGlobalEntry(globalStoreDir, query, (io.now ?? (() => new Date()))());
      const archive = join(globalStoreDir, ".archive.md");
      print(options, { archived: { hash: entry.contentHash, name: entry.name, category: entry.category }, archive }, `Archived "${entry.name}" (sha256:${entry.contentHash}) to ${archive}.\n`);
      setExitCode(0);
    });

  withLocations(program.command("feedback").description("record whether an entry helped; the ranking of hooks, search and MCP follows it"))
    .argument("<hash>", "sha256:…, the hash, a prefix of 4+ hex digits, or the name")
    .option("--helpful", "it helped")
    .option("--not-helpful", "it did not help, or misled")
    .option("--note <text>", "why, in a line")
    .option("--json", "print the vote and the entry's votes so far as JSON")
    .action(async (query: string, options: Locations & { helpful?: boolean; notHelpful?: boolean; note?: string; json?: boolean }) => {
      if ((options.helpful === true) === (options.notHelpful === true)) throw new UsageError("feedback needs one of --helpful or --not-helpful");
      const { entry } = await recordFeedback({ ...(await locate(options)), hash: query, helpful: options.helpful === true, note: options.note, now: (io.now ?? (() => new Date()))() });
      const votes = readFeedback((await locate(options)).globalStoreDir).get(entry.contentHash);
      print(
        options,
        { hash: entry.contentHash, name: entry.name, helpful: options.helpful === true, votes: { helpful: votes?.helpful ?? 0, unhelpful: votes?.unhelpful ?? 0 } },
        `Recorded: "${entry.name}" (sha256:${entry.contentHash}) ${options.helpful === true ? "helped" : "did not help"}; ${formatFeedback(votes).trim()}\n`,
      );
      setExitCode(0);
    });

  program
    .command("contest")
    .description("mark two global entries as contradicting each other; injection then names the other beside each")
    .argument("<hash-a>", "the first entry")
    .argument("<hash-b>", "the second entry")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--json", "print the two entries as JSON")
    .action(async (queryA: string, queryB: string, options: Locations & { json?: boolean }) => {
      const { globalStoreDir } = await locate(options);
      const [a, b] = await contestGlobalEntries(globalStoreDir, queryA, queryB);
      print(options, { contested: [a, b].map((entry) => ({ hash: entry.contentHash, name: entry.name })) }, `Contested: "${a.name}" (sha256:${a.contentHash}) and "${b.name}" (sha256:${b.contentHash}).\n`);
      setExitCode(0);
    });

  program
    .command("tag")
    .description("tag a global entry universal (every project) or project-specific (only the projects its Source names)")
    .argument("<hash>", "sha256:…, the hash, a prefix of 4+ hex digits, or the name")
    .option("--universal", "inject it into every project")
    .option("--project-specific", "inject it only into the projects its Source names")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--json", "print the entry, its tag and whether it changed as JSON")
    .action(async (query: string, options: Locations & { universal?: boolean; projectSpecific?: boolean; json?: boolean }) => {
      if ((options.universal === true) === (options.projectSpecific === true)) throw new UsageError("tag takes one of --universal or --project-specific. (see iflow-memory tag --help)");
      const { globalStoreDir } = await locate(options);
      const reach = options.universal === true ? "universal" : "project-specific";
      const { entry, changed } = await tagGlobalEntry(globalStoreDir, query, reach);
      print(
        options,
        { hash: entry.contentHash, name: entry.name, tag: reach, changed },
        changed ? `Tagged "${entry.name}" (sha256:${entry.contentHash}) ${reach}.\n` : `"${entry.name}" (sha256:${entry.contentHash}) is tagged ${reach} already; nothing changed.\n`,
      );
      setExitCode(0);
    });

  program
    .command("history")
    .description("the injections recorded in the global store, newest first: session starts, prompt recalls, MCP searches")
    .option("--session <id>", "only this session's")
    .option("--entry <hash>", "only the injections of this entry (sha256:…, the hash or a prefix of 4+ hex digits)")
    .option("--json", "print the records as a JSON array")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .action(async (options: Locations & { session?: string; entry?: string; json?: boolean }) => {
      if (options.entry !== undefined && !/^(sha256:)?[0-9a-f]{4,16}$/i.test(options.entry.trim())) throw new UsageError(`--entry takes a content hash or a prefix of 4 or more hex digits, not "${options.entry}". (see iflow-memory history --help)`);
      const { globalStoreDir } = await locate(options);
      const { records, warnings } = await readInjectionHistory(globalStoreDir, { ...(options.session === undefined ? {} : { session: options.session }), ...(options.entry === undefined ? {} : { entry: options.entry }) });
      warn(warnings);
      if (options.json === true) io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      else if (records.length === 0) io.stdout.write("No injections recorded.\n");
      else io.stdout.write(records.map(formatHistoryRecord).join(""));
      setExitCode(0);
    });

  withLocations(program.command("stats").description("entries per scope and category, and what the next session start injects"))
    .option("--json", "print the numbers as JSON")
    .action(async (options: Locations & { json?: boolean }) => {
      const { warnings, ...stats } = await collectStats({ ...(await locate(options)), env: io.env });
      warn(warnings);
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
      } else {
        for (const scope of ["local", "global"] as const) {
          const counts = stats.entries[scope];
          io.stdout.write(`${scope.padEnd(7)} ${CATEGORIES.map((category) => `${category} ${counts[category]}`).join(", ")} (${CATEGORIES.reduce((sum, category) => sum + counts[category], 0)} entries)\n`);
        }
        const { injection, signals } = stats;
        io.stdout.write(`${formatSignals(signals)}\n`);
        io.stdout.write(
          injection.enabled
            ? `next session start (${injection.ranking === "relevance" ? "by relevance to the signals" : "today's order"}): ${injection.entries} entr${injection.entries === 1 ? "y" : "ies"}, ${injection.chars} characters (~${injection.estimatedTokens} tokens)${injection.indexed > 0 ? `, and ${injection.indexed} more named in its index` : ""}\n${injection.names.map((name) => `  ${name}\n`).join("")}`
            : "next session start: injection is off in the project's config\n",
        );
        const { feedback } = stats;
        io.stdout.write(feedback.entries === 0 ? "feedback: none recorded\n" : `feedback: ${feedback.helpful} helpful, ${feedback.unhelpful} not helpful, on ${feedback.entries} entr${feedback.entries === 1 ? "y" : "ies"}\n`);
        const last = stats.lastInjection;
        io.stdout.write(last === null ? "last injection: none recorded\n" : `last injection: ${String(last.timestamp)} into ${String(last.project)}, ${String(last.entries_injected)} entries\n`);
      }
      setExitCode(0);
    });

  withLocations(program.command("doctor").description("check config, store, permissions, duplicates, contradictions and secrets"))
    .option("--json", "print the checks as JSON")
    .action(async (options: Locations & { json?: boolean }) => {
      const locations = await locate(options);
      const home = io.env.HOME !== undefined && io.env.HOME !== "" ? io.env.HOME : homedir();
      const checks = [...(await diagnoseMemory(locations)), ...(await installChecks(io.env, home, locations.projectRoot))];
      if (options.json === true) io.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
      else
        for (const check of checks) {
          io.stdout.write(`${check.status.padEnd(7)} ${check.name}\n`);
          for (const detail of check.details) io.stdout.write(`        ${detail}\n`);
        }
      setExitCode(checks.some((check) => check.status === "problem") ? 1 : 0);
    });

  withLocations(program.command("export-rules").description("write the universal global entries to a Claude Code rules file (Phase 0 fallback)"))
    .option("--dest <file>", "the rules file (default: ~/.claude/rules/iflow-memory.md)")
    .option("--force", "overwrite a file that export-rules did not write")
    .option("--json", "print the file written, its entries and characters as JSON")
    .action(async (options: Locations & { dest?: string; force?: boolean; json?: boolean }) => {
      const home = io.env.HOME !== undefined && io.env.HOME !== "" ? io.env.HOME : homedir();
      const destination = options.dest === undefined ? join(home, ".claude", "rules", "iflow-memory.md") : resolve(io.cwd, options.dest);
      const result = await exportRules({ ...(await locate(options)), destination, force: options.force === true, now: (io.now ?? (() => new Date()))() });
      print(options, { path: result.path, entries: result.entries, chars: result.chars }, `Wrote ${result.entries} universal entries (${result.chars} characters) to ${result.path}.\n`);
      setExitCode(0);
    });
}

// The votes on one entry, as a line.
function formatFeedback(votes: FeedbackSummary | undefined): string {
  if (votes === undefined) return "feedback: none\n";
  const note = votes.notes.at(-1);
  return `feedback: ${votes.helpful} helpful, ${votes.unhelpful} not helpful${note === undefined ? "" : `; last note: ${note.note}`}\n`;
}

// An injection: one line, then its entries indented, with what relevance matched.
function formatHistoryRecord(record: HistoryRecord): string {
  const what = record.event === "search" && record.query !== undefined ? `search "${record.query}"` : record.event;
  // Records from before agents were told apart are Claude Code's; an MCP search does not know its agent.
  const agent = record.agent ?? (record.event === "search" ? "" : "claude");
  const head = `${record.time}  ${record.session ?? "(no session)"}  ${record.project}  ${agent === "" ? "" : `${agent}  `}${what}  ${record.entries.length} entr${record.entries.length === 1 ? "y" : "ies"}, ${record.chars} characters (${record.ranking === "relevance" ? "by relevance" : "today's order"})\n`;
  return head + record.entries.map((entry) => `    sha256:${entry.hash}  ${entry.name}${entry.matched === undefined || entry.matched.length === 0 ? "" : `  (matched: ${entry.matched.join(", ")})`}\n`).join("");
}

// One line of what a session start finds the session to be about.
function formatSignals(signals: SessionSignals): string {
  const parts = [
    `branch ${signals.branch ?? "(none)"}`,
    `${signals.changedFiles.length} changed file${signals.changedFiles.length === 1 ? "" : "s"}`,
    `${signals.commitSubjects.length} commit subject${signals.commitSubjects.length === 1 ? "" : "s"}`,
    signals.feature === null ? "no active feature" : `feature ${signals.feature.id} "${signals.feature.title}"`,
    signals.stack.length === 0 ? "no stack markers" : `stack ${signals.stack.slice(0, 6).join(", ")}${signals.stack.length > 6 ? ` (+${signals.stack.length - 6})` : ""}`,
  ];
  const skipped = signals.skipped.length === 0 ? "" : `; skipped: ${signals.skipped.join("; ")}`;
  return `signals: ${parts.join(", ")}${skipped}`;
}
