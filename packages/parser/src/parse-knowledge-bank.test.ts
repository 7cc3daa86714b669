import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPORA_DIR, dedent } from "@iflow-memory/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashContent } from "./content-hash.js";
import { parseKnowledgeBank } from "./parse-knowledge-bank.js";
import { serializeEntry } from "./serialize-entry.js";

const OPTIONS = { category: "patterns", scope: "local", path: "patterns.md" } as const;
const parse = (text: string) => parseKnowledgeBank(text, OPTIONS);

describe("parseKnowledgeBank", () => {
  it("takes the content hash of a description from knownHashes instead of hashing it, and hashes the descriptions it lacks", () => {
    const text = "### Pattern: One\nFirst.\n\n### Pattern: Two\nSecond.\n";
    const entries = parseKnowledgeBank(text, { ...OPTIONS, knownHashes: new Map([["First.", "kept-hash"]]) }).entries;
    expect(entries.map((entry) => entry.contentHash)).toEqual(["kept-hash", hashContent("Second.")]);
  });

  it("reads an entry whole: name without its prefix, description, metadata, known fields, position and origin", () => {
    const text = dedent`
      # Patterns

      Approaches that worked.

      ### Pattern: Thin Orchestrator
      Keep SKILL.md thin;
      move detail into reference files.
      - Used in: Feature #018
      - Observation count: 3
      - Confidence: HIGH
      - Last observed: 2026-10-05T04:00:00Z
      - Tags: skills, structure
    `;
    const description = "Keep SKILL.md thin;\nmove detail into reference files.";
    expect(parse(text)).toEqual({
      entries: [
        {
          name: "Thin Orchestrator",
          headerLine: "### Pattern: Thin Orchestrator",
          category: "patterns",
          description,
          metadataText: "- Used in: Feature #018\n- Observation count: 3\n- Confidence: HIGH\n- Last observed: 2026-10-05T04:00:00Z\n- Tags: skills, structure",
          metadata: { "Used in": "Feature #018", "Observation count": "3", Confidence: "HIGH", "Last observed": "2026-10-05T04:00:00Z", Tags: "skills, structure" },
          observationCount: 3,
          confidence: "high",
          lastObserved: "2026-10-05T04:00:00Z",
          tags: ["skills", "structure"],
          filePosition: 1,
          contentHash: hashContent(description),
          scope: "local",
          origin: { path: "patterns.md", line: 5 },
        },
      ],
      warnings: [],
    });
  });

  it("removes any of the three prefixes from the name, case-insensitively, and keeps other headers whole", () => {
    const names = parse("### Anti-Pattern: A\n### heuristic:  B\n### PATTERN: C\n### Plain D\n").entries.map((entry) => entry.name);
    expect(names).toEqual(["A", "B", "C", "Plain D"]);
  });

  it("counts file positions among the file's entries, 1-based", () => {
    expect(parse("### A\nx\n### B\ny\n### C\n").entries.map((entry) => entry.filePosition)).toEqual([1, 2, 3]);
  });

  it("ends an entry at a # or ## heading, which belongs to no entry, and ignores the preamble", () => {
    const { entries } = parse("Preamble text\n- Not: metadata\n### A\nfirst\n## Section\nnot part of A\n### B\nsecond\n# Title\ntrailing\n");
    expect(entries.map((entry) => [entry.name, entry.description])).toEqual([["A", "first"], ["B", "second"]]);
  });

  it("keeps the first value of a repeated key, and matches the known keys case-insensitively (first written wins)", () => {
    const [entry] = parse("### A\nd\n- Confidence: low\n- confidence: high\n- Confidence: medium\n- Observation Count: 4\n").entries;
    expect([entry!.metadata, entry!.confidence, entry!.observationCount]).toEqual([{ Confidence: "low", confidence: "high", "Observation Count": "4" }, "low", 4]);
  });

  it("reads a key with spaces around it, and skips metadata lines without a colon or key", () => {
    const [entry] = parse("### A\nd\n-  Source  :  webshop\n- no colon here\n- : empty key\n").entries;
    expect(entry!.metadata).toEqual({ Source: "webshop" });
  });

  it("defaults the observation count to 1 when absent or not a whole number, and reads a leading number", () => {
    const counts = ["", "- Observation count: 7", "- Observation count: seven", "- Observation count: 2.5", "- Observation count: 3 (Feature #1, #2, #3)", "- Observation count: 4, maybe"].map(
      (line) => parse(`### A\nd\n${line}\n`).entries[0]!.observationCount,
    );
    expect(counts).toEqual([1, 7, 1, 1, 3, 4]);
  });

  it("defaults the confidence to medium, reads its first word case-insensitively", () => {
    const values = ["", "- Confidence: High", "- Confidence: low (one project)", "- Confidence: certain"].map((line) => parse(`### A\nd\n${line}\n`).entries[0]!.confidence);
    expect(values).toEqual(["medium", "high", "low", "medium"]);
  });

  it("reads Tags as a trimmed list and Last observed as written; absent means [] and null", () => {
    const [tagged, bare] = parse("### A\nd\n- Tags: universal ,  testing,,\n- Last observed: Feature #33\n### B\ne\n").entries;
    expect([tagged!.tags, tagged!.lastObserved, bare!.tags, bare!.lastObserved]).toEqual([["universal", "testing"], "Feature #33", [], null]);
  });

  it("takes the description up to the first metadata line and trims it with Python's whitespace rules", () => {
    const [entry] = parse("### A\n\n\u0085 Line one\n  Line two \n\n- Key: v\nafter metadata\n").entries;
    expect([entry!.description, entry!.metadataText]).toEqual(["Line one\n  Line two", "- Key: v\nafter metadata"]);
  });

  it("gives an entry without metadata an empty metadata text and record", () => {
    const [entry] = parse("### A\njust a description\n").entries;
    expect([entry!.metadataText, entry!.metadata]).toEqual(["", {}]);
  });

  it("removes HTML comments, also across lines, but not inside code spans or fences", () => {
    const text = "### A\nkeep <!-- hidden --> this\n<!-- a\n### Not a header\n--> tail\n`<!-- literal -->`\n```\n<!-- in fence -->\n### Not a header either\n- Not: metadata\n```\n- Key: v\n";
    const { entries, warnings } = parse(text);
    expect(entries.map((entry) => entry.name)).toEqual(["A"]);
    expect(entries[0]!.description).toBe("keep  this\n tail\n`<!-- literal -->`\n```\n<!-- in fence -->\n### Not a header either\n- Not: metadata\n```");
    expect(entries[0]!.metadata).toEqual({ Key: "v" });
    expect(warnings).toEqual([]);
  });

  it("keeps an unterminated <!-- as text", () => {
    expect(parse("### A\nsee <!-- never closed\n").entries[0]!.description).toBe("see <!-- never closed");
  });

  it("warns about a code fence that is never closed, and reads the rest as code", () => {
    expect(parse("### A\n```\n### B\n").warnings).toEqual([
      { path: "patterns.md", line: 2, message: "code fence opened at line 2 is never closed; everything after it is read as code" },
    ]);
  });

  it("reads CRLF line endings and a byte-order mark like LF text", () => {
    expect(parse("\uFEFF### A\r\nd\r\n- Key: v\r\n")).toEqual(parse("### A\nd\n- Key: v\n"));
  });

  it("reports each entry's header line in the original text", () => {
    expect(parse("# T\n\n<!-- a\nb -->\n### A\nx\n\n### B\n").entries.map((entry) => entry.origin.line)).toEqual([5, 8]);
  });

  it("reads every entry of the real 265-entry bank, and not the example each file keeps in an HTML comment", () => {
    const counts = ["anti-patterns", "heuristics", "patterns"].map((category) => {
      const text = readFileSync(join(CORPORA_DIR, "iflow-kb-2026-04/docs/knowledge-bank", `${category}.md`), "utf8");
      const headers = text.split("\n").filter((line) => line.startsWith("### ")).length;
      const { entries, warnings } = parseKnowledgeBank(text, { category: category as "patterns", scope: "local", path: category });
      return [entries.length, headers, warnings.length];
    });
    expect(counts).toEqual([[75, 76, 0], [95, 96, 0], [95, 96, 0]]);
  });

  it("reads a real global-store entry whole", () => {
    const text = readFileSync(join(CORPORA_DIR, "global-store-example/heuristics.md"), "utf8");
    const entry = parseKnowledgeBank(text, { category: "heuristics", scope: "global", path: "heuristics.md" }).entries[1]!;
    expect([entry.name, entry.observationCount, entry.tags, entry.contentHash, entry.metadata["Content-Hash"]]).toEqual([
      "Live Line Numbers Expire Before Implementation — Pre-Step Grep Required",
      2,
      ["universal"],
      "0baa2a5b66eb2269",
      "sha256:0baa2a5b66eb2269",
    ]);
  });

  it("never throws, whatever the text", () => {
    const markdownish = fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("### ", "## ", "# ", "- Key: v", "- Observation count: ", "<!--", "-->", "```", "~~~", "`", "\n", "\r\n", "\uFEFF")), { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(fc.property(fc.oneof(fc.string({ unit: "binary" }), markdownish), (text) => {
      const { entries } = parse(text);
      for (const entry of entries) expect(entry.contentHash).toMatch(/^[0-9a-f]{16}$/);
    }), { numRuns: 3000 });
  });

  it("reads back what serializeEntry wrote", () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .,]{0,20}[A-Za-z0-9.]$/);
    fc.assert(fc.property(word, word, fc.integer({ min: 1, max: 99 }), fc.constantFrom("high", "medium", "low"), (name, description, count, confidence) => {
      const text = serializeEntry({ headerLine: `### Pattern: ${name}`, description, metadataText: `- Observation count: ${count}\n- Confidence: ${confidence}` });
      const [entry] = parse(text).entries;
      expect([entry!.name, entry!.description, entry!.observationCount, entry!.confidence, serializeEntry(entry!)]).toEqual([name.trim(), description, count, confidence, text]);
    }));
  });
});
