import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES, parseKnowledgeBank, type Category } from "@iflow-memory/parser";
import { readGlobalStore, withStoreLock } from "@iflow-memory/store";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";

const LOOP = join(REPO_ROOT, "test/promote/promote-loop.mjs");
const PREFIX: Record<Category, string> = { "anti-patterns": "Anti-Pattern", heuristics: "Heuristic", patterns: "Pattern" };

/** A project whose bank holds the same universal learnings as every other one, in all three files. */
function project(base: string, name: string, perCategory: number): string {
  const root = join(base, name);
  mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
  for (const category of CATEGORIES) {
    const entries = Array.from({ length: perCategory }, (_, index) => `### ${PREFIX[category]}: Shared ${category} ${index}\nShared lesson number ${index} about ${category}, the same everywhere.\n`);
    writeFileSync(join(root, "docs/knowledge-bank", `${category}.md`), entries.join("\n"));
  }
  return root;
}

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => spawn(process.execPath, [LOOP, ...args], { stdio: "inherit" }).on("close", resolve));
}

function readStore(store: string) {
  return CATEGORIES.flatMap((category) => {
    const text = readFileSync(join(store, `${category}.md`), "utf8");
    return parseKnowledgeBank(text, { category, scope: "global", path: category }).entries.map((entry) => ({
      name: entry.name,
      count: entry.observationCount,
      sources: (entry.metadata.Source ?? "").split(";").map((item) => item.trim()).filter((item) => item !== ""),
    }));
  });
}

// Promotions in a loop (promote-loop.mjs STORE …args), killed at a random moment once they have
// started; then the next writer finishes or discards what the killed one left (a journal,
// temporary files, a stale lock).
async function promoteUntilKilled(store: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [LOOP, store, ...args], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 120));
  child.kill("SIGKILL");
  await new Promise((resolve) => child.on("close", resolve));
  await withStoreLock(store, async () => undefined, { timeoutMs: 5_000 });
}

describe("promotion under concurrency and crashes", () => {
  it("loses nothing and double-counts nothing when 8 processes promote overlapping entries 50 rounds each", async () => {
    const base = makeTempDir();
    const store = join(base, "store");
    const roots = Array.from({ length: 8 }, (_, index) => project(base, `project-${index}`, 2));
    const codes = await Promise.all(roots.map((root) => run([store, root, "50"])));
    expect(codes).toEqual(Array(8).fill(0));
    const entries = readStore(store);
    expect(entries.length).toBe(6);
    for (const entry of entries) {
      expect(entry.count).toBe(8 * 50);
      expect(new Set(entry.sources).size).toBe(8 * 50);
    }
  }, 180_000);

  it("leaves every promotion wholly applied or not at all when the promoting process is killed at random moments (100 trials)", async () => {
    const base = makeTempDir();
    const store = join(base, "store");
    const root = project(base, "crashy", 3);
    let feature = 1;
    let killedMidway = 0;
    for (let trial = 0; trial < 100; trial++) {
      await promoteUntilKilled(store, [root, "1000", String(feature)]);
      feature += 1000;
      let entries: ReturnType<typeof readStore> = [];
      try {
        entries = readStore(store);
      } catch {
        continue; // killed before the first promotion created the files
      }
      if (entries.length === 0) continue;
      killedMidway++;
      expect(entries.length).toBe(9);
      const counts = new Set(entries.map((entry) => entry.count));
      // Every promotion touches all nine entries in three files: all-or-nothing means one count for all.
      expect(counts.size).toBe(1);
      for (const entry of entries) expect(entry.sources.length).toBe(entry.count);
    }
    expect(killedMidway).toBeGreaterThan(50);
  }, 240_000);

  // The rounds whose learnings each category file holds, as readers see them: every promotion adds one learning to each file.
  const roundsOf = (entries: ReadonlyArray<{ name: string; category: Category }>) =>
    CATEGORIES.map((category) => entries.filter((entry) => entry.category === category).map((entry) => /^Round (\d+) /.exec(entry.name)?.[1] ?? `unexpected: ${entry.name}`).join(","));

  it("leaves every promotion that appends to the store wholly applied or not at all when the promoting process is killed at random moments (100 trials)", async () => {
    const base = makeTempDir();
    const store = join(base, "store");
    const root = project(base, "crashy", 1);
    let feature = 1;
    let appendedTo = 0;
    for (let trial = 0; trial < 100; trial++) {
      await promoteUntilKilled(store, [root, "1000", String(feature), "new"]);
      feature += 1000;
      const { entries, warnings } = await readGlobalStore(store);
      expect(warnings).toEqual([]);
      const [antiPatterns, heuristics, patterns] = roundsOf(entries);
      expect([heuristics, patterns]).toEqual([antiPatterns, antiPatterns]);
      for (const entry of entries) expect([entry.observationCount, entry.description]).toEqual([1, `Shared lesson of round ${/^Round (\d+) /.exec(entry.name)![1]} about ${entry.category}, the same everywhere.`]);
      if (entries.length > 3) appendedTo++;
    }
    expect(appendedTo).toBeGreaterThan(50);
  }, 240_000);

  it("never shows a reader a promotion that appends in some files and not yet in others", async () => {
    const base = makeTempDir();
    const store = join(base, "store");
    const root = project(base, "appender", 1);
    const child = spawn(process.execPath, [LOOP, store, root, "150", "1", "new"], { stdio: ["ignore", "pipe", "inherit"] });
    const done = new Promise((resolve) => child.on("close", resolve));
    let finished = false;
    void done.then(() => (finished = true));
    let reads = 0;
    let seen = 0;
    while (!finished) {
      const { entries } = await readGlobalStore(store);
      const [antiPatterns, heuristics, patterns] = roundsOf(entries);
      expect([heuristics, patterns]).toEqual([antiPatterns, antiPatterns]);
      reads++;
      seen = Math.max(seen, entries.length / 3);
    }
    expect(await done).toBe(0);
    expect(roundsOf((await readGlobalStore(store)).entries)[0]!.split(",")).toHaveLength(150);
    expect(reads).toBeGreaterThan(20);
    expect(seen).toBeGreaterThan(1);
  }, 120_000);
});
