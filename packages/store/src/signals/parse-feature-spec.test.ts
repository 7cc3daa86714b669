import { dedent } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { MAX_SUMMARY_CHARS, parseFeatureSpec } from "./parse-feature-spec.js";

describe("parseFeatureSpec", () => {
  it("takes the first # heading without its Spec: prefix, and the first paragraph of prose", () => {
    const spec = dedent`
      ---
      status: draft
      ---
      <!-- template: spec
      # not a title -->
      # Feature Specification: Retries for embedding calls

      **Feature:** 034
      **Status:** Draft

      | a | b |
      |---|---|

      ---

      \`\`\`text
      # not a heading

      not a paragraph
      \`\`\`

      ## Problem

      > Embedding calls hang when
      > the provider   stalls.

      Second paragraph.
    `;
    expect(parseFeatureSpec(spec)).toEqual({ title: "Retries for embedding calls", summary: "Embedding calls hang when the provider stalls." });
  });

  it("strips Spec: and Specification: in any case and keeps other titles whole", () => {
    expect(["# Spec: A", "# specification — B", "# SPEC - C", "# Spectrum analysis", "# Spec-driven design", "# Feature 034: D ##"].map((text) => parseFeatureSpec(text).title)).toEqual([
      "A",
      "B",
      "C",
      "Spectrum analysis",
      "Spec-driven design",
      "Feature 034: D",
    ]);
  });

  it("cuts a long summary at a word, ending it with an ellipsis", () => {
    const { summary } = parseFeatureSpec(`# T\n\n${"word ".repeat(200)}\n`);
    expect([summary.length <= MAX_SUMMARY_CHARS, summary.endsWith("word…"), summary.startsWith("word word")]).toEqual([true, true, true]);
  });

  it("gives no title and an empty summary for a spec without either", () => {
    expect([parseFeatureSpec(""), parseFeatureSpec("## Only a section\n"), parseFeatureSpec("Text before any title.\n\n# Title\n")]).toEqual([
      { title: null, summary: "" },
      { title: null, summary: "" },
      { title: "Title", summary: "Text before any title." },
    ]);
  });
});
