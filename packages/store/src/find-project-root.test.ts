import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { findProjectRoot } from "./find-project-root.js";

describe("findProjectRoot", () => {
  it("walks up to the nearest folder with .git or docs/knowledge-bank", async () => {
    const base = makeTempDir();
    mkdirSync(join(base, "repo/.git"), { recursive: true });
    mkdirSync(join(base, "repo/packages/kb/docs/knowledge-bank"), { recursive: true });
    mkdirSync(join(base, "repo/packages/kb/src/deep"), { recursive: true });
    mkdirSync(join(base, "repo/other"), { recursive: true });
    expect([await findProjectRoot(join(base, "repo/packages/kb/src/deep")), await findProjectRoot(join(base, "repo/other"))]).toEqual([
      join(base, "repo/packages/kb"),
      join(base, "repo"),
    ]);
  });
});
