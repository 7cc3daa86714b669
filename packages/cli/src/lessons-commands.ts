import { join, resolve } from "node:path";
import { LESSON_TYPES, type Lesson } from "@iflow-memory/parser";
import {
  addLesson,
  auditCheck,
  decayLessonsInDirectory,
  DEFAULT_LESSONS_DIR,
  extractLessonsFromEvents,
  findProjectRoot,
  forgetLesson,
  injectLessons,
  readEffectiveness,
  readLessons,
} from "@iflow-memory/store";
import { Command, Option } from "commander";
import { UsageError } from "./errors.js";
import { printer, type CliIO } from "./io.js";

type Warnings = Array<{ path: string; line: number; message: string }>;

/**
 * `iflow-memory lessons …`: ArcheFlow-compatible cross-run lessons in `.archeflow/memory`
 * (or `--dir`). The rules live in the ranker and store; this only wires and prints.
 */
export function registerLessonsCommands(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  const lessons = program.command("lessons").description("cross-run lessons, ArcheFlow-compatible (.archeflow/memory)");
  const dirOption = () => new Option("--dir <dir>", `the lessons folder (default: ${DEFAULT_LESSONS_DIR} in the project: the nearest folder above with .git or docs/knowledge-bank)`);
  // In the project, as every other command finds it: a subfolder never starts a second store.
  const projectRoot = () => findProjectRoot(io.cwd);
  const directory = async (options: { dir?: string }) => (options.dir === undefined ? join(await projectRoot(), DEFAULT_LESSONS_DIR) : resolve(io.cwd, options.dir));
  const now = () => (io.now ?? (() => new Date()))();
  const print = printer(io);
  const warn = (warnings: Warnings) => {
    for (const warning of warnings) io.stderr.write(`iflow-memory: warning: ${warning.path}${warning.line > 0 ? `:${warning.line}` : ""}: ${warning.message}\n`);
  };

  lessons
    .command("add")
    .description("add a lesson by hand (a preference unless --type says otherwise: injected at once)")
    .argument("<text>", "the lesson")
    .addOption(new Option("--type <type>", "the lesson type").choices(LESSON_TYPES).default("preference"))
    .option("--domain <domain>", "writing, code, general or your own", "general")
    .option("--tags <tags>", "comma-separated keywords (default: taken from the text)")
    .option("--severity <severity>", "bug, warning, info or recommendation", "info")
    .option("--json", "print the lesson as JSON")
    .addOption(dirOption())
    .action(async (text: string, options: { type: string; domain: string; tags?: string; severity: string; dir?: string; json?: boolean }) => {
      if (text.trim() === "") throw new UsageError("lessons add needs the lesson's text, e.g. iflow-memory lessons add \"User prefers one bundled PR\"");
      const tags = options.tags?.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "");
      const lesson = await addLesson(await directory(options), { description: text.trim(), type: options.type, domain: options.domain, severity: options.severity, ...(tags === undefined ? {} : { tags }) }, now);
      print(options, plain(lesson), `Added ${lesson.id} (${lesson.type}, ${lesson.domain}): ${lesson.description}\n`);
      setExitCode(0);
    });

  lessons
    .command("list")
    .description("list the lessons")
    .option("--json", "print the lessons as JSON")
    .addOption(dirOption())
    .action(async (options: { json?: boolean; dir?: string }) => {
      const read = await readLessons(await directory(options));
      warn(read.warnings);
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(read.lessons.map(plain), null, 2)}\n`);
      } else if (read.lessons.length === 0) {
        io.stdout.write(`No lessons in ${read.directory}.\n`);
      } else {
        const rows = read.lessons.map((lesson) => [lesson.id, String(lesson.frequency), lesson.type, lesson.domain, lesson.description]);
        io.stdout.write(table([["ID", "Freq", "Type", "Domain", "Description"], ...rows]));
      }
      setExitCode(0);
    });

  lessons
    .command("forget")
    .description("move a lesson to archive.jsonl")
    .argument("<id>", "the lesson's id, e.g. m-002")
    .option("--json", "print the archived lesson as JSON")
    .addOption(dirOption())
    .action(async (id: string, options: { dir?: string; json?: boolean }) => {
      const lesson = await forgetLesson(await directory(options), id);
      print(options, plain(lesson), `Archived ${lesson.id}: ${lesson.description}\n`);
      setExitCode(0);
    });

  lessons
    .command("extract")
    .description("learn from a run's review findings (ArcheFlow events JSONL)")
    .argument("<events>", "the run's events file, e.g. .archeflow/events/RUN_ID.jsonl")
    .option("--run-id <id>", "the run (default: the first event's run_id)")
    .option("--json", "print the run, the lessons added and confirmed, and the findings skipped as JSON")
    .addOption(dirOption())
    .action(async (events: string, options: { runId?: string; dir?: string; json?: boolean }) => {
      const report = await extractLessonsFromEvents(await directory(options), resolve(io.cwd, events), { ...(options.runId === undefined ? {} : { runId: options.runId }), clock: now });
      warn(report.warnings);
      if (options.json === true) {
        print(options, { runId: report.runId, alreadyExtracted: report.alreadyExtracted, added: report.added.map(plain), confirmed: report.confirmed.map(plain), skipped: report.skipped }, "");
      } else if (report.alreadyExtracted) {
        io.stdout.write(`Run ${report.runId} was already extracted; nothing changed.\n`);
      } else {
        const ids = (list: Lesson[]) => (list.length === 0 ? "" : ` (${list.map((lesson) => lesson.id).join(", ")})`);
        io.stdout.write(
          `Run ${report.runId}: ${report.added.length} new candidate lesson${report.added.length === 1 ? "" : "s"}${ids(report.added)}, ` +
            `${report.confirmed.length} confirmed${ids(report.confirmed)}, ${report.skipped} finding${report.skipped === 1 ? "" : "s"} skipped (info or recommendation).\n`,
        );
      }
      setExitCode(0);
    });

  lessons
    .command("decay")
    .description("age the lessons a run did not see; archive those that reach frequency 0")
    .option("--run-id <id>", "the run that just completed (default: the run extracted last)")
    .option("--json", "print the run, how many lessons aged and those archived as JSON")
    .addOption(dirOption())
    .action(async (options: { runId?: string; dir?: string; json?: boolean }) => {
      const result = await decayLessonsInDirectory(await directory(options), options.runId === undefined ? {} : { runId: options.runId });
      const archived = result.archived.length === 0 ? "none archived" : `archived ${result.archived.map((lesson) => lesson.id).join(", ")}`;
      print(
        options,
        { runId: result.runId, aged: result.aged, archived: result.archived.map(plain) },
        `Decay${result.runId === null ? "" : ` after run ${result.runId}`}: ${result.aged} lesson${result.aged === 1 ? "" : "s"} aged, ${archived}.\n`,
      );
      setExitCode(0);
    });

  lessons
    .command("inject")
    .description("print the Known Issues section for a domain and archetype (nothing when no lesson qualifies)")
    .argument("[domain]", "only this domain's confirmed lessons (and general ones)")
    .argument("[archetype]", "only lessons for this archetype (and for none)")
    .option("--audit <run-id>", "record in audit.jsonl what was injected into this run")
    .option("--json", "print the section's text as JSON")
    .addOption(dirOption())
    .action(async (domain: string | undefined, archetype: string | undefined, options: { audit?: string; dir?: string; json?: boolean }) => {
      const result = await injectLessons(await directory(options), {
        ...(domain === undefined ? {} : { domain }),
        ...(archetype === undefined ? {} : { archetype }),
        ...(options.audit === undefined ? {} : { auditRunId: options.audit }),
        clock: now,
      });
      warn(result.warnings);
      print(options, { text: result.text }, result.text);
      setExitCode(0);
    });

  lessons
    .command("audit-check")
    .description("check whether the lessons injected into a run prevented their issues")
    .argument("<run-id>", "the run")
    .argument("[events]", "the run's events file (default: .archeflow/events/RUN_ID.jsonl)")
    .option("--json", "print the checks as JSON")
    .addOption(dirOption())
    .action(async (runId: string, events: string | undefined, options: { dir?: string; json?: boolean }) => {
      const path = events === undefined ? join(await projectRoot(), ".archeflow", "events", `${runId}.jsonl`) : resolve(io.cwd, events);
      const result = await auditCheck(await directory(options), runId, path, now);
      warn(result.warnings);
      if (options.json === true) {
        print(options, { runId, injected: result.injected, checks: result.checks, alreadyChecked: result.alreadyChecked }, "");
        setExitCode(0);
        return;
      }
      if (result.injected === 0) io.stdout.write(`No lessons were injected into run ${runId} (no audit record); nothing to check.\n`);
      for (const check of result.checks) io.stdout.write(`${check.lesson_id}  ${check.effectiveness}  (${check.keyword_overlap_pct}% keyword overlap)  ${check.lesson_desc}\n`);
      if (result.alreadyChecked.length > 0) io.stdout.write(`Already checked for run ${runId}: ${result.alreadyChecked.join(", ")}.\n`);
      setExitCode(0);
    });

  lessons
    .command("effectiveness")
    .description("helpful and ineffective counts per lesson, and overall")
    .option("--json", "print the summary as JSON")
    .addOption(dirOption())
    .action(async (options: { json?: boolean; dir?: string }) => {
      const summary = await readEffectiveness(await directory(options));
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      } else if (summary.lessons.length === 0) {
        io.stdout.write("No effectiveness checks yet (run iflow-memory lessons audit-check RUN_ID after a run).\n");
      } else {
        const percent = (ratio: number | null) => (ratio === null ? "—" : `${Math.round(ratio * 100)}%`);
        const rows = summary.lessons.map((row) => [row.lesson_id, String(row.helpful), String(row.ineffective), percent(row.ratio), row.lesson_desc]);
        io.stdout.write(table([["ID", "Helpful", "Ineffective", "Helpful%", "Description"], ...rows]));
        io.stdout.write(`Overall: ${summary.helpful} helpful, ${summary.ineffective} ineffective (${percent(summary.ratio)} helpful).\n`);
      }
      setExitCode(0);
    });
}

function plain(lesson: Lesson): Record<string, unknown> {
  const { extra, ...known } = lesson;
  return { ...known, ...extra };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => rows.reduce((widest, row) => Math.max(widest, row[column]!.length), 0));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")).join("\n") + "\n";
}
