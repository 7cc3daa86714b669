/**
 * What `iflow-memory --help` prints, as data: the bin prints it without loading commander or any
 * command (`formatTopLevelHelp`). help-text.test.ts checks it against commander's own help at
 * several widths, so that a command added or described anew in run.ts fails the test until it
 * is added here.
 */
export const TOP_LEVEL_HELP: TopLevelHelp = {
  usage: "iflow-memory [options] [command]",
  description: "Persistent, cross-project engineering memory for AI coding agents.",
  sections: [
    {
      title: "Options:",
      items: [
        ["-V, --version", "print the version"],
        ["-h, --help", "show help"],
      ],
    },
    {
      title: "Commands:",
      items: [
        ["inject [options]", "print the memory block a session would get (a drop-in for the original memory.py)"],
        ["search [options] <query...>", "local and global entries ranked for a query, best first (the hooks' ranking; every entry holding a word of the query)"],
        ["mcp [options]", "serve memory to an agent over MCP (stdio): search_memory, store_memory, get_memory, list_memories, forget_memory, record_feedback"],
        ["promote [options]", "promote a project's universal learnings into the global store (project-specific ones stay local)"],
        ["list [options]", "list memory entries, in injection order"],
        ["show [options] <hash-or-name>", "show one entry by content hash (or a prefix of 4+ hex digits) or by name"],
        ["forget [options] <hash>", "move a global entry to .archive.md in the store (never deleted)"],
        ["feedback [options] <hash>", "record whether an entry helped; the ranking of hooks, search and MCP follows it"],
        ["contest [options] <hash-a> <hash-b>", "mark two global entries as contradicting each other; injection then names the other beside each"],
        ["tag [options] <hash>", "tag a global entry universal (every project) or project-specific (only the projects its Source names)"],
        ["history [options]", "the injections recorded in the global store, newest first: session starts, prompt recalls, MCP searches"],
        ["stats [options]", "entries per scope and category, and what the next session start injects"],
        ["doctor [options]", "check config, store, permissions, duplicates, contradictions and secrets"],
        ["export-rules [options]", "write the universal global entries to a Claude Code rules file (Phase 0 fallback)"],
        ["setup", "install iflow-memory into an agent (claude, codex, gemini); without one, list the agents found here and what each would get"],
        ["lessons", "cross-run lessons, ArcheFlow-compatible (.archeflow/memory)"],
        ["ui [options]", "a local web page to browse, search and curate memory (127.0.0.1 only, behind a per-run token)"],
        ["hook", "run as an agent hook"],
        ["help [command]", "display help for command"],
      ],
    },
  ],
};

export interface TopLevelHelp {
  usage: string;
  description: string;
  /** Headed lists of a term (an option, a command) and its description. */
  sections: Array<{ title: string; items: Array<[term: string, description: string]> }>;
}

/**
 * The help as commander 14 lays it out for a terminal `width` columns wide (80 where stdout is
 * not a terminal): terms padded to the longest, descriptions wrapped at spaces beside them.
 *
 * @example
 * formatTopLevelHelp(TOP_LEVEL_HELP, process.stdout.isTTY ? process.stdout.columns : 80);
 * // "Usage: iflow-memory [options] [command]\n\nPersistent, cross-project …"
 */
export function formatTopLevelHelp(help: TopLevelHelp, width: number): string {
  const termWidth = Math.max(...help.sections.flatMap((section) => section.items.map(([term]) => term.length)));
  // Two spaces of indent and two between term and description, as commander's Help.formatItem.
  const item = ([term, description]: [string, string]): string =>
    `  ${term.padEnd(termWidth)}  ${wrapAtSpaces(description, width - termWidth - 4).replace(/\n/g, `\n${" ".repeat(termWidth + 4)}`)}`;
  return [
    `Usage: ${help.usage}`,
    "",
    wrapAtSpaces(help.description, width),
    "",
    ...help.sections.flatMap((section) => [section.title, ...section.items.map(item), ""]),
  ].join("\n");
}

// Below this many columns commander does not wrap at all (Help.minWidthToWrap).
const MIN_WIDTH_TO_WRAP = 40;

// Commander's Help.boxWrap for text without line breaks or colours: whole words, a line as full as fits.
function wrapAtSpaces(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const chunks = text.match(/\s*\S+/g) ?? [];
  const lines: string[] = [];
  let line = chunks.shift() ?? "";
  for (const chunk of chunks) {
    if (line.length + chunk.length <= width) {
      line += chunk;
    } else {
      lines.push(line);
      line = chunk.trimStart();
    }
  }
  lines.push(line);
  return lines.join("\n");
}
