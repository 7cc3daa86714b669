import { describe, expect, it } from "vitest";
import { parseKnowledgeBank } from "./parse-knowledge-bank.js";
import { redactEntry } from "./redact-entry.js";

const TOKEN = `${"ghp"}_${"a1B2c3".repeat(6)}`;
const parse = (text: string) => parseKnowledgeBank(text, { category: "heuristics", scope: "local", path: "h.md" }).entries[0]!;

describe("redactEntry", () => {
  it("redacts a secret in the header line and the name, keeping the content hash", () => {
    const entry = parse(`### Heuristic: Rotate ${TOKEN} monthly\nRotate tokens.\n- Tags: ops\n`);
    const { entry: clean, kinds } = redactEntry(entry);
    expect(clean).toEqual({ ...entry, headerLine: "### Heuristic: Rotate [REDACTED] monthly", name: "Rotate [REDACTED] monthly" });
    expect(kinds).toEqual(["github-token"]);
  });

  it("redacts the description, the metadata text, each metadata value and the tags", () => {
    const entry = parse(`### Heuristic: Tokens\nUse ${TOKEN}.\n- Instead: never ${TOKEN}\n- Tags: ${TOKEN}, ops\n`);
    const { entry: clean, kinds } = redactEntry(entry);
    expect([clean.description, clean.metadataText, clean.metadata, clean.tags]).toEqual([
      "Use [REDACTED].",
      "- Instead: never [REDACTED]\n- Tags: [REDACTED], ops",
      { Instead: "never [REDACTED]", Tags: "[REDACTED], ops" },
      ["[REDACTED]", "ops"],
    ]);
    expect(kinds).toEqual(["github-token", "github-token", "github-token"]);
  });

  it("returns an entry without a secret as it is", () => {
    const entry = parse("### Heuristic: Plain\nNothing secret.\n");
    expect(redactEntry(entry)).toEqual({ entry, kinds: [] });
    expect(redactEntry(entry).entry).toBe(entry);
  });
});
