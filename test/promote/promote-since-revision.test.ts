import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_BIN, makeTempDir, runNode } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

function repository(): { base: string; root: string } {
  const base = makeTempDir();
  const root = join(base, "webshop");
  mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), "### Heuristic: One\nFirst lesson.\n");
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { stdio: "pipe", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "one");
  return { base, root };
}

describe("iflow-memory promote --since", () => {
  it.each([{ flags: ["--dry-run"], run: "a dry run" }, { flags: [], run: "a real run" }])("never lets a revision that looks like an option reach git as one ($run): no file written, one line naming it", async ({ flags }) => {
    const { base, root } = repository();
    const target = join(base, "PWNED-output");
    for (const revision of [`--output=${target}`, `-o${target}`]) {
      const result = await runNode(CLI_BIN, ["promote", "--project-root", root, "--global-store", join(base, "store"), "--since", revision, ...flags], { env: { HOME: join(base, "home") }, cwd: root });
      expect(existsSync(target)).toBe(false);
      expect(readdirSync(base).filter((name) => name.startsWith("PWNED"))).toEqual([]);
      expect([result.code === 1 || result.code === 2, result.stdout]).toEqual([true, ""]);
      expect(result.stderr).toMatch(new RegExp(`^iflow-memory: [^\\n]*${revision.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")}[^\\n]*\\n$`));
    }
  });

  it("still takes the entries added since a real revision", async () => {
    const { base, root } = repository();
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), "### Heuristic: One\nFirst lesson.\n\n### Heuristic: Two\nSecond lesson, universal.\n");
    const result = await runNode(CLI_BIN, ["promote", "--project-root", root, "--global-store", join(base, "store"), "--since", "HEAD", "--dry-run", "--json"], { env: { HOME: join(base, "home") } });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { entries: Array<{ name: string }> }).entries.map((entry) => entry.name)).toEqual(["Two"]);
  });
});
