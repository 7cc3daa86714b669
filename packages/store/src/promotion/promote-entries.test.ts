import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseKnowledgeBank } from "@iflow-memory/parser";
import { CORPORA_DIR, makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { promoteEntries } from "./promote-entries.js";

const now = new Date("2026-11-22T10:00:00Z");

function project(name: string, entries: string): { root: string; store: string } {
  const base = makeTempDir();
  const root = join(base, name);
  mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
  writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), entries);
  return { root, store: join(base, "store") };
}

const storeEntries = (store: string) => parseKnowledgeBank(readFileSync(join(store, "heuristics.md"), "utf8"), { category: "heuristics", scope: "global", path: "h" }).entries;

describe("promoteEntries", () => {
  it("adds a new universal entry in the global format with its provenance, and keeps a project-specific one local", async () => {
    const { root, store } = project("webshop", "### Heuristic: Read Errors Twice\nRead the whole error before changing code.\n- Confidence: high\n\n### Heuristic: Cart Rounding\nThe webshop rounds cart totals per line.\n");
    const result = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "042", now });
    expect(result.entries.map((entry) => [entry.name, entry.action, entry.reason])).toEqual([
      ["Read Errors Twice", "added", "Universal because: names no file, package, folder or identifier of this project"],
      ["Cart Rounding", "kept-local", "Project-specific because: names the project webshop"],
    ]);
    expect(result.summary).toBe("Memory promotion: 1 universal entries promoted to global store, 1 project-specific entries kept local.");
    expect(readFileSync(join(store, "heuristics.md"), "utf8")).toBe(
      "# Global Heuristics\n\nCross-project learnings promoted from retrospectives. Automatically managed by iflow.\nDo not edit manually — entries are updated during /finish.\n\n" +
        "### Heuristic: Read Errors Twice\nRead the whole error before changing code.\n- Content-Hash: sha256:" +
        result.entries[0]!.contentHash +
        "\n- Source: webshop, Feature #042\n- Observation count: 1\n- Last observed: 2026-11-22T10:00:00Z\n- Tags: universal\n- Confidence: high\n",
    );
  });

  it("observes a matching entry once more from another project: count + 1, Last observed, provenance appended", async () => {
    const a = project("webshop", "### Heuristic: Read Errors Twice\nRead the whole error before changing code.\n");
    await promoteEntries({ projectRoot: a.root, globalStoreDir: a.store, feature: "042", now });
    const b = project("infra", "### Heuristic: Errors\n  read the WHOLE error   before changing code.\n");
    const result = await promoteEntries({ projectRoot: b.root, globalStoreDir: a.store, feature: "7", now: new Date("2026-11-23T08:00:00Z") });
    expect(result.entries.map((entry) => [entry.action, entry.observationCount])).toEqual([["counted", 2]]);
    const [entry] = storeEntries(a.store);
    expect([entry!.observationCount, entry!.lastObserved, entry!.metadata.Source, storeEntries(a.store).length]).toEqual([2, "2026-11-23T08:00:00Z", "webshop, Feature #042; infra, Feature #7", 1]);
  });

  it("never counts the same project and feature twice: re-running is a no-op", async () => {
    const { root, store } = project("webshop", "### Heuristic: Read Errors Twice\nRead the whole error before changing code.\n");
    await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "042", now });
    const before = readFileSync(join(store, "heuristics.md"), "utf8");
    const again = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "042", selection: { kind: "all" }, now });
    expect([again.entries[0]!.action, readFileSync(join(store, "heuristics.md"), "utf8")]).toEqual(["already-counted", before]);
    const nextFeature = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "043", selection: { kind: "all" }, now });
    expect(nextFeature.entries[0]!.observationCount).toBe(2);
  });

  it("takes by default only the entries this project has not promoted before", async () => {
    const { root, store } = project("webshop", "### Heuristic: One\nFirst lesson.\n");
    await promoteEntries({ projectRoot: root, globalStoreDir: store, now });
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), "### Heuristic: One\nFirst lesson.\n\n### Heuristic: Two\nSecond lesson.\n");
    const result = await promoteEntries({ projectRoot: root, globalStoreDir: store, now });
    expect(result.entries.map((entry) => entry.name)).toEqual(["Two"]);
  });

  it("takes named entries, and refuses an unknown name with a clear message", async () => {
    const { root, store } = project("webshop", "### Heuristic: One\nFirst lesson.\n\n### Heuristic: Two\nSecond lesson.\n");
    expect((await promoteEntries({ projectRoot: root, globalStoreDir: store, selection: { kind: "names", names: ["two"] }, now })).entries.map((entry) => entry.name)).toEqual(["Two"]);
    await expect(promoteEntries({ projectRoot: root, globalStoreDir: store, selection: { kind: "names", names: ["Three"] }, now })).rejects.toThrow(/^cannot promote "Three": no such entry in .*docs\/knowledge-bank/);
  });

  it("takes the entries added since a git revision", async () => {
    const { root, store } = project("webshop", "### Heuristic: One\nFirst lesson.\n");
    const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { stdio: "pipe", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "one");
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), "### Heuristic: One\nFirst lesson.\n\n### Heuristic: Two\nSecond lesson.\n");
    const result = await promoteEntries({ projectRoot: root, globalStoreDir: store, selection: { kind: "since", revision: "HEAD" }, now });
    expect(result.entries.map((entry) => entry.name)).toEqual(["Two"]);
    await expect(promoteEntries({ projectRoot: root, globalStoreDir: store, selection: { kind: "since", revision: "no-such-rev" }, now })).rejects.toMatchObject({ code: "GIT_FAILED" });
  });

  it("replaces a secret with [REDACTED] before it reaches the store, and refuses the promotion with strict", async () => {
    const secret = `ghp_${"a1B2c3".repeat(6)}`;
    const { root, store } = project("webshop", `### Heuristic: Token Hygiene\nNever paste a token like ${secret} into a prompt.\n`);
    await expect(promoteEntries({ projectRoot: root, globalStoreDir: store, strict: true, now })).rejects.toThrow('refusing to promote "Token Hygiene": it contains a secret (github-token)');
    expect(existsSync(join(store, "heuristics.md"))).toBe(false);
    const result = await promoteEntries({ projectRoot: root, globalStoreDir: store, now });
    expect([result.entries[0]!.redacted, result.warnings]).toEqual([["github-token"], ['"Token Hygiene": 1 secret (github-token) replaced by [REDACTED]']]);
    const text = readFileSync(join(store, "heuristics.md"), "utf8");
    expect([text.includes(secret), text.includes("Never paste a token like [REDACTED] into a prompt.")]).toEqual([false, true]);
  });

  it("writes nothing on a dry run", async () => {
    const { root, store } = project("webshop", "### Heuristic: One\nFirst lesson.\n");
    const result = await promoteEntries({ projectRoot: root, globalStoreDir: store, dryRun: true, now });
    expect([result.entries[0]!.action, existsSync(store)]).toEqual(["added", false]);
  });

  it("merges into the real global-store example without touching its other entries", async () => {
    const base = makeTempDir();
    const store = join(base, "store");
    cpSync(join(CORPORA_DIR, "global-store-example"), store, { recursive: true });
    const original = readFileSync(join(store, "heuristics.md"), "utf8");
    const [, second] = parseKnowledgeBank(original, { category: "heuristics", scope: "global", path: "h" }).entries;
    const { root } = project("notes-app", `### Heuristic: Same Lesson\n${second!.description}\n`);
    await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "9", now });
    const after = readFileSync(join(store, "heuristics.md"), "utf8");
    const changedLines = after.split("\n").filter((line, index) => line !== original.split("\n")[index]);
    expect(changedLines).toEqual(["- Source: infra-tools, Feature #030; webshop, Feature #016; notes-app, Feature #9", "- Observation count: 3", "- Last observed: 2026-11-22T10:00:00Z"]);
  });
});

describe("promoteEntries (what the user names, and what the summary counts)", () => {
  it("promotes an entry named by --universal even when this project kept it local before, and counts only what it promoted", async () => {
    const root = makeTempDir();
    mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), "### Heuristic: One\nWrite the failing test first.\n\n### Heuristic: Two\nTime-box every spike to a day.\n");
    const store = join(makeTempDir(), "store");
    const now = new Date("2026-11-24T10:00:00Z");
    const first = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "042", projectSpecific: ["Two"], now });
    expect([first.entries.map((entry) => [entry.name, entry.action]), first.summary]).toEqual([
      [["One", "added"], ["Two", "kept-local"]],
      "Memory promotion: 1 universal entries promoted to global store, 1 project-specific entries kept local.",
    ]);
    const named = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "042", universal: ["two"], now });
    expect([named.entries.map((entry) => [entry.name, entry.action]), named.summary]).toEqual([
      [["Two", "added"]],
      "Memory promotion: 1 universal entries promoted to global store, 0 project-specific entries kept local.",
    ]);
    const again = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature: "042", selection: { kind: "all" }, now });
    expect([again.entries.map((entry) => entry.action), again.summary]).toEqual([
      ["already-counted", "already-counted"],
      "Memory promotion: 0 universal entries promoted to global store, 0 project-specific entries kept local.",
    ]);
  });
});
