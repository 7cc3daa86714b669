import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, readConfig } from "./read-config.js";

function projectWithConfig(text: string | null): string {
  const root = makeTempDir();
  if (text !== null) {
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/iflow-dev.local.md"), text);
  }
  return root;
}

const read = async (text: string | null) => {
  const root = projectWithConfig(text);
  const result = await readConfig(root);
  return { config: result.config, warnings: result.warnings.map((warning) => ({ ...warning, path: warning.path.slice(root.length + 1) })) };
};

describe("readConfig", () => {
  it("uses the defaults without a config file, silently", async () => {
    expect(await read(null)).toEqual({ config: DEFAULT_CONFIG, warnings: [] });
  });

  it("reads every key of the frontmatter and leaves other iflow keys and the body alone", async () => {
    const text = "---\nworkflow_mode: full\nmemory_injection_enabled: true\nmemory_injection_limit: 7\nmemory_injection_max_chars: 4000\nmemory_injection_events:\n  - startup\n  - compact\nmemory_global_enabled: false\nmemory_injection_ranking: Original\nmemory_injection_index: false\nmemory_prompt_recall: off\nmemory_prompt_recall_limit: 2\n---\n\n# Notes\nmemory_injection_limit: 99\n";
    expect(await read(text)).toEqual({
      config: {
        injectionEnabled: true,
        injectionLimit: 7,
        injectionMaxChars: 4000,
        injectionEvents: ["startup", "compact"],
        globalEnabled: false,
        injectionRanking: "original",
        injectionIndex: false,
        promptRecall: false,
        promptRecallLimit: 2,
      },
      warnings: [],
    });
  });

  it("reads strict as a ranking of its own", async () => {
    expect((await read("---\nmemory_injection_ranking: strict\n---\n")).config.injectionRanking).toBe("strict");
  });

  it("caps a size above what Claude Code passes to the model whole at 9,500 characters, with a warning", async () => {
    expect(await read("---\nmemory_injection_max_chars: 20000\n---\n")).toEqual({
      config: { ...DEFAULT_CONFIG, injectionMaxChars: 9500 },
      warnings: [
        {
          path: ".claude/iflow-dev.local.md",
          line: 2,
          message: "memory_injection_max_chars: 20000 is more than Claude Code passes to the model whole (about 10,000 characters); capped at 9500",
        },
      ],
    });
    expect((await read("---\nmemory_injection_max_chars: 9500\n---\n")).warnings).toEqual([]);
  });

  it("names the closest known key for a misspelled one of ours, and leaves other iflow features' keys alone", async () => {
    expect(await read("---\nmemory_injection_limt: 5\nmemory_max_chars: 4000\nmemroy_global_enabled: false\nworkflow_mode: full\nreview_depth: 3\n---\n")).toEqual({
      config: DEFAULT_CONFIG,
      warnings: [
        { path: ".claude/iflow-dev.local.md", line: 2, message: "memory_injection_limt is not a setting of iflow-memory; did you mean memory_injection_limit? (ignored)" },
        { path: ".claude/iflow-dev.local.md", line: 3, message: "memory_max_chars is not a setting of iflow-memory; did you mean memory_injection_max_chars? (ignored)" },
        { path: ".claude/iflow-dev.local.md", line: 4, message: "memroy_global_enabled is not a setting of iflow-memory; did you mean memory_global_enabled? (ignored)" },
      ],
    });
  });

  it("★ reads true, True, \"true\" and `true # comment` all as true (the original's grep read two of them as false)", async () => {
    const values = await Promise.all(["true", "True", '"true"', "true # keep it on", "TRUE"].map(async (value) => (await read(`---\nmemory_global_enabled: ${value}\n---\n`)).config.globalEnabled));
    expect(values).toEqual([true, true, true, true, true]);
    expect((await read("---\nmemory_injection_enabled: False # off\n---\n")).config.injectionEnabled).toBe(false);
  });

  it("reports a ranking or a prompt recall setting it does not know, and uses the default", async () => {
    expect(await read("---\nmemory_injection_ranking: smart\nmemory_prompt_recall_limit: -1\n---\n")).toEqual({
      config: DEFAULT_CONFIG,
      warnings: [
        { path: ".claude/iflow-dev.local.md", line: 2, message: 'memory_injection_ranking: "smart" is not relevance, strict or original; using the default "relevance"' },
        { path: ".claude/iflow-dev.local.md", line: 3, message: 'memory_prompt_recall_limit: -1 is not a whole number of 0 or more; using the default 5' },
      ],
    });
  });

  it("names the settings the file gives a valid value, and none without a file", async () => {
    const root = projectWithConfig("---\nmemory_injection_max_chars: 5000\nmemory_injection_limit: lots\nmemory_injection_enabled: false\n---\n");
    expect((await readConfig(root)).configured).toEqual(["injectionEnabled", "injectionMaxChars"]);
    expect((await readConfig(projectWithConfig(null))).configured).toEqual([]);
    expect((await readConfig(projectWithConfig("no frontmatter\n"))).configured).toEqual([]);
  });

  it("★ accepts -1 as no limit", async () => {
    expect((await read("---\nmemory_injection_limit: -1\n---\n")).config.injectionLimit).toBe(-1);
  });

  it("reports a bad value once, with its line, and uses that key's default", async () => {
    expect(await read("---\nmemory_injection_limit: 5\nmemory_injection_max_chars: lots\nmemory_global_enabled: maybe\n---\n")).toEqual({
      config: { ...DEFAULT_CONFIG, injectionLimit: 5 },
      warnings: [
        { path: ".claude/iflow-dev.local.md", line: 3, message: 'memory_injection_max_chars: "lots" is not a whole number of 1 or more; using the default 9000' },
        { path: ".claude/iflow-dev.local.md", line: 4, message: 'memory_global_enabled: "maybe" is not true or false; using the default true' },
      ],
    });
  });

  it("keeps an event Claude Code is not known to send, with a warning", async () => {
    const result = await read("---\nmemory_injection_events: [startup, restart]\n---\n");
    expect(result.config.injectionEvents).toEqual(["startup", "restart"]);
    expect(result.warnings.map((warning) => warning.line)).toEqual([2]);
  });

  it("uses the defaults on broken YAML, an unclosed frontmatter, or none at all, saying which", async () => {
    const messages = await Promise.all(["---\nmemory_injection_limit: [1, 2\n---\n", "---\nmemory_injection_limit: 3\n", "memory_injection_limit: 3\n"].map(async (text) => {
      const result = await read(text);
      expect(result.config).toEqual(DEFAULT_CONFIG);
      return result.warnings.map((warning) => warning.message.replace(/\(.*\)/, "(…)"));
    }));
    expect(messages).toEqual([
      ["invalid YAML (…); using the defaults"],
      ["its YAML frontmatter is never closed with ---; using the defaults"],
      ["has no YAML frontmatter (…); using the defaults"],
    ]);
  });

  it("uses the defaults, with one warning, on YAML the parser refuses: an alias bomb, an unknown tag, a document too deep", async () => {
    // Nine levels of nine aliases: some 387 million strings if it were expanded.
    const bomb = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]", ...Array.from({ length: 9 }, (_, level) => `a${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(", ")}]`)];
    const texts = [
      `---\nmemory_injection_limit: 3\n${bomb.join("\n")}\n---\n`,
      "---\nmemory_injection_limit: !number 3\n---\n",
      "---\nmemory_injection_events: !!set [startup]\nmemory_injection_limit: 3\n---\n",
      `---\nmemory_injection_limit: 3\nnested: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n---\n`,
    ];
    const results = await Promise.all(texts.map((text) => read(text)));
    expect(results.map((result) => result.config)).toEqual(texts.map(() => DEFAULT_CONFIG));
    expect(results.map((result) => result.warnings.map((warning) => ({ ...warning, message: warning.message.replace(/\(.*\)/, "(…)") })))).toEqual(
      [1, 2, 2, 3].map((line) => [{ path: ".claude/iflow-dev.local.md", line, message: "invalid YAML (…); using the defaults" }]),
    );
    expect(results.map((result) => /\((.*)\)/.exec(result.warnings[0]!.message)![1])).toEqual([
      "Excessive alias count indicates a resource exhaustion attack",
      "Unresolved tag: !number",
      "tag:yaml.org,2002:set used for seq collection, but expects map",
      "Maximum call stack size exceeded",
    ]);
  });

  it("reports a config path that is a directory and uses the defaults", async () => {
    const root = makeTempDir();
    mkdirSync(join(root, ".claude/iflow-dev.local.md"), { recursive: true });
    const result = await readConfig(root);
    expect([result.config, result.warnings.map((warning) => warning.message)]).toEqual([DEFAULT_CONFIG, ["is a directory, not a file; skipped"]]);
  });
});
