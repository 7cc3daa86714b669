// The shell examples of a markdown file, as a reader sees them: ```sh blocks (each line a
// command) and ```console blocks (`$ ` lines are commands, the lines after one its output).

/** One command of an example and the output the README shows for it (null: none shown). */
export interface ShellStep {
  command: string;
  shown: string | null;
}

/** A fenced block of shell commands, where it is in the file, and what comes right before it. */
export interface ShellExample {
  /** 1-based line of the opening fence. */
  line: number;
  language: "sh" | "console";
  steps: ShellStep[];
  /** The prose paragraph just above the block: the setup an example says it needs. */
  context: string;
}

/**
 * The README's shell examples. An ```sh block with one command followed by a ```markdown
 * block (blank lines between) shows that block as the command's output. A ```console block with
 * no `$ ` line is an excerpt of output, not an example: it has no steps.
 *
 * @example
 * extractShellExamples("```console\n$ echo hi\nhi\n```\n")[0].steps; // [{ command: "echo hi", shown: "hi" }]
 */
export function extractShellExamples(markdown: string): ShellExample[] {
  const lines = markdown.split("\n");
  const examples: ShellExample[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\w*)\s*$/.exec(lines[index]!);
    if (fence === null) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    if (end < 0) break;
    const body = lines.slice(index + 1, end);
    const language = fence[1];
    if (language === "sh" || language === "console") {
      const steps = language === "sh" ? shSteps(body) : consoleSteps(body);
      if (language === "sh" && steps.length === 1) {
        const next = lines.findIndex((line, at) => at > end && line.trim() !== "");
        if (next >= 0 && lines[next] === "```markdown") {
          const close = lines.findIndex((line, at) => at > next && /^```\s*$/.test(line));
          steps[0]!.shown = lines.slice(next + 1, close).join("\n");
        }
      }
      examples.push({ line: index + 1, language, steps, context: paragraphAbove(lines, index) });
    }
    index = end;
  }
  return examples;
}

function shSteps(body: string[]): ShellStep[] {
  return joinContinuations(body.filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"))).map((command) => ({ command, shown: null }));
}

function consoleSteps(body: string[]): ShellStep[] {
  const steps: ShellStep[] = [];
  for (let at = 0; at < body.length; at++) {
    const line = body[at]!;
    if (line.startsWith("$ ")) {
      const parts = [line.slice(2)];
      while (parts.at(-1)!.endsWith("\\") && at + 1 < body.length) parts.push(body[++at]!);
      steps.push({ command: parts.join("\n"), shown: null });
    } else if (steps.length > 0) {
      const step = steps.at(-1)!;
      step.shown = step.shown === null ? line : `${step.shown}\n${line}`;
    }
  }
  return steps;
}

function joinContinuations(lines: string[]): string[] {
  const commands: string[] = [];
  for (const line of lines) {
    if (commands.length > 0 && commands.at(-1)!.endsWith("\\")) commands[commands.length - 1] += `\n${line}`;
    else commands.push(line);
  }
  return commands;
}

function paragraphAbove(lines: string[], fenceIndex: number): string {
  let at = fenceIndex - 1;
  while (at >= 0 && lines[at]!.trim() === "") at--;
  const paragraph: string[] = [];
  while (at >= 0 && lines[at]!.trim() !== "" && !lines[at]!.startsWith("```")) paragraph.unshift(lines[at--]!);
  return paragraph.join("\n");
}

/**
 * Whether a command's output is what the README shows: the same lines, where a line `…` stands
 * for any number of lines and a `…` inside a line for any text on it. Trailing blank lines and
 * trailing spaces do not count.
 *
 * @example
 * matchesShown("a\n…\nd", "a\nb\nc\nd\n"); // true
 */
export function matchesShown(shown: string, actual: string): boolean {
  const normalise = (text: string) => text.split("\n").map((line) => line.trimEnd()).join("\n").replace(/\n+$/, "");
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = normalise(shown)
    .split("\n")
    .map((line) => (line.trim() === "…" ? "(?:[^\\n]*\\n)*?" : `${line.split("…").map(escape).join("[^\\n]*?")}\\n`))
    .join("");
  return new RegExp(`^${pattern}$`).test(`${normalise(actual)}\n`);
}
