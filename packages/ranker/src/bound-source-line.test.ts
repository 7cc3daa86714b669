import { describe, expect, it } from "vitest";
import { makeEntry } from "./__fixtures__/make-entry.js";
import { boundSourceLine } from "./bound-source-line.js";
import { injectionCandidates } from "./plan-injection.js";

const sources = (count: number) => Array.from({ length: count }, (_, index) => `project-${index}, Feature #${index}`).join("; ");
const globalEntry = (source: string) =>
  makeEntry({
    name: "Atomic Writes",
    scope: "global",
    metadataText: `- Content-Hash: sha256:0000000000000000\n- Source: ${source}\n- Observation count: 17\n- Tags: universal`,
    metadata: { "Content-Hash": "sha256:0000000000000000", Source: source, "Observation count": "17", Tags: "universal" },
    tags: ["universal"],
  });

describe("boundSourceLine", () => {
  it("shows the three most recent provenances and counts the rest, every other line as it was", () => {
    const bounded = boundSourceLine(globalEntry(sources(17)));
    expect([bounded.metadataText, bounded.metadata.Source]).toEqual([
      "- Content-Hash: sha256:0000000000000000\n- Source: project-14, Feature #14; project-15, Feature #15; project-16, Feature #16 (and 14 earlier)\n- Observation count: 17\n- Tags: universal",
      "project-14, Feature #14; project-15, Feature #15; project-16, Feature #16 (and 14 earlier)",
    ]);
  });

  it("leaves an entry with three provenances or fewer, or none, as it is", () => {
    const three = globalEntry(sources(3));
    const local = makeEntry({ name: "Local" });
    expect([boundSourceLine(three), boundSourceLine(local)]).toEqual([three, local]);
  });

  it("is applied to what an injection chooses from, after the entries of other projects are left out", () => {
    const [candidate] = injectionCandidates({ local: [], global: [globalEntry(sources(40))], project: "webshop" });
    expect(candidate!.metadata.Source!.length).toBeLessThan(120);
  });
});
