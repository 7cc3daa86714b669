import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { findActiveFeature } from "./find-active-feature.js";

/** A project with feature folders; a folder maps to its spec text (null: no spec.md) and optional .meta.json. */
function project(features: Record<string, { spec?: string; meta?: unknown }>): string {
  const root = makeTempDir();
  for (const [name, { spec, meta }] of Object.entries(features)) {
    mkdirSync(join(root, "docs/features", name), { recursive: true });
    if (spec !== undefined) writeFileSync(join(root, "docs/features", name, "spec.md"), spec);
    if (meta !== undefined) writeFileSync(join(root, "docs/features", name, ".meta.json"), JSON.stringify(meta));
  }
  return root;
}

const FEATURES = {
  "012-old-cache": { spec: "# Old cache\n\nDone long ago.\n" },
  "034-semantic-memory-retries": { spec: "# Spec: Retries for embedding calls\n\nEmbedding calls hang.\n" },
  "035-semantic-memory": { spec: "# Semantic memory\n\nThe store.\n" },
  "36-unpadded": {},
};
const RETRIES = { id: "034", slug: "semantic-memory-retries", title: "Retries for embedding calls", summary: "Embedding calls hang." };

describe("findActiveFeature", () => {
  it("takes the feature whose <id>-<slug> is in the branch name, the longest when several are", () => {
    const root = project(FEATURES);
    expect([
      findActiveFeature({ projectRoot: root, branch: "feature/034-semantic-memory-retries", changedFiles: [] }),
      findActiveFeature({ projectRoot: root, branch: "feature/035-semantic-memory", changedFiles: [] })?.id,
      findActiveFeature({ projectRoot: root, branch: "Feature/034-Semantic-Memory-Retries-v2", changedFiles: [] })?.id,
    ]).toEqual([RETRIES, "035", "034"]);
  });

  it("takes the feature whose id is a number of its own in the branch name", () => {
    const root = project(FEATURES);
    expect([
      findActiveFeature({ projectRoot: root, branch: "fix/034-timeouts", changedFiles: [] })?.id,
      findActiveFeature({ projectRoot: root, branch: "fix/issue-34", changedFiles: [] }),
      findActiveFeature({ projectRoot: root, branch: "fix/1034-x", changedFiles: [] }),
      findActiveFeature({ projectRoot: root, branch: "fix/36-x", changedFiles: [] })?.slug,
    ]).toEqual(["034", null, null, "unpadded"]);
  });

  it("else takes the feature holding the most changed files, the higher id on a tie", () => {
    const root = project(FEATURES);
    const inFeature = (name: string, file: string) => `app/docs/features/${name}/${file}`;
    expect([
      findActiveFeature({
        projectRoot: root,
        branch: "wip",
        changedFiles: ["src/a.ts", inFeature("012-old-cache", "a.md"), inFeature("034-semantic-memory-retries", "a.md"), inFeature("034-semantic-memory-retries", "b.md")],
        projectPrefix: "app/",
      })?.id,
      findActiveFeature({ projectRoot: root, branch: null, changedFiles: ["docs/features/012-old-cache/a.md", "docs/features/035-semantic-memory/"] })?.id,
      findActiveFeature({ projectRoot: root, branch: null, changedFiles: ["docs/features/", "docs/features/999-gone/a.md", "other/docs/features/012-old-cache/a.md"] }),
    ]).toEqual(["034", "035", null]);
  });

  it("prefers the branch over changed files", () => {
    const root = project(FEATURES);
    expect(findActiveFeature({ projectRoot: root, branch: "feature/012-old-cache", changedFiles: ["docs/features/034-semantic-memory-retries/a.md"] })?.id).toBe("012");
  });

  it("takes no feature when nothing points at one: the newest folder is not the active one", () => {
    const root = project(FEATURES);
    expect([findActiveFeature({ projectRoot: root, branch: "main", changedFiles: ["src/a.ts"] }), findActiveFeature({ projectRoot: makeTempDir(), branch: "feature/034-x", changedFiles: [] })]).toEqual([null, null]);
  });

  it("else takes the only feature whose .meta.json says it is active, and none when several do", () => {
    const one = project({ ...FEATURES, "012-old-cache": { meta: { id: "012", status: "completed" } }, "034-semantic-memory-retries": { spec: FEATURES["034-semantic-memory-retries"].spec, meta: { id: "034", status: "active" } } });
    const two = project({ "001-a": { meta: { status: "active" } }, "002-b": { meta: { status: "active" } }, "003-c": { meta: "not an object" } });
    expect([findActiveFeature({ projectRoot: one, branch: "main", changedFiles: [] }), findActiveFeature({ projectRoot: two, branch: "main", changedFiles: [] })]).toEqual([RETRIES, null]);
  });

  it("names a feature without a spec by its slug", () => {
    const root = project(FEATURES);
    expect(findActiveFeature({ projectRoot: root, branch: "fix/36-x", changedFiles: [] })).toEqual({ id: "36", slug: "unpadded", title: "unpadded", summary: "" });
  });
});
