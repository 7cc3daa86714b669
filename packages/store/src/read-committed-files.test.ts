import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { COMMIT_JOURNAL } from "./commit-files.js";
import { entryFileCachePath } from "./caches/entry-file-cache.js";
import { readCommittedFiles } from "./read-committed-files.js";
import { readGlobalStore } from "./read-global-store.js";
import { readTextFile } from "./read-text-file.js";

const entry = (name: string, count: number) => `### Heuristic: ${name}\nShared lesson ${name}.\n- Observation count: ${count}\n`;

// The store as a writer killed in the middle of a commit of three files leaves it: the
// temporaries written, the journal in place, the first `renamed` renames done.
function interrupted(renamed: number): string {
  const store = makeTempDir();
  const files = ["anti-patterns.md", "heuristics.md", "patterns.md"].map((name) => join(store, name));
  const renames = files.map((path, index) => ({ from: `${path}.iflow-0123456789abcdef.tmp`, to: path, index }));
  for (const { from, to, index } of renames) {
    writeFileSync(index < renamed ? to : from, entry(`E${index}`, 2));
    if (index >= renamed) writeFileSync(to, entry(`E${index}`, 1));
  }
  writeFileSync(join(store, COMMIT_JOURNAL), JSON.stringify({ renames: renames.map(({ from, to }) => ({ from, to })) }));
  return store;
}

describe("readCommittedFiles", () => {
  it.each([0, 1, 2, 3])("reads a commit killed after %i of its 3 renames as done: every file new, never a mix", async (renamed) => {
    const { entries } = await readGlobalStore(interrupted(renamed));
    expect(entries.map((found) => [found.name, found.observationCount])).toEqual([["E0", 2], ["E2", 2], ["E1", 2]]);
  });

  it.each([0, 1, 3])("reads a commit killed after %i of its 3 renames as done in the calling thread too (a session start's inThread)", async (renamed) => {
    const store = interrupted(renamed);
    const { entries } = await readGlobalStore(store, { cache: { dir: join(store, ".cache"), salt: "test", inThread: true } });
    expect(entries.map((found) => [found.name, found.observationCount])).toEqual([["E0", 2], ["E2", 2], ["E1", 2]]);
  });

  it("reads the files themselves when there is no journal", async () => {
    const store = makeTempDir();
    writeFileSync(join(store, "heuristics.md"), entry("Only", 3));
    const [file] = await readCommittedFiles(store, [join(store, "heuristics.md")], (path) => readTextFile(path));
    expect(file).toEqual({ text: entry("Only", 3) });
  });

  it("never reads a file a journal names that is not its target's own temporary", async () => {
    const store = makeTempDir();
    const target = join(store, "heuristics.md");
    writeFileSync(target, entry("Real", 1));
    const elsewhere = join(makeTempDir(), "secret.txt");
    writeFileSync(elsewhere, "not memory");
    writeFileSync(join(store, COMMIT_JOURNAL), JSON.stringify({ renames: [{ from: elsewhere, to: target }] }));
    expect(await readCommittedFiles(store, [target], (path) => readTextFile(path))).toEqual([{ text: entry("Real", 1) }]);
  });
});

// The store as a writer killed in the middle of a commit that appends one entry to each of three
// files leaves it: the journal in place, the first `appended` files appended, the next one cut half-way.
function interruptedAppend(appended: number): string {
  const store = makeTempDir();
  const files = ["anti-patterns.md", "heuristics.md", "patterns.md"].map((name) => join(store, name));
  const old = (index: number) => entry(`Old${index}`, 1);
  const added = (index: number) => `\n${entry(`New${index}`, 1)}`;
  files.forEach((path, index) => writeFileSync(path, index < appended ? old(index) + added(index) : index === appended ? old(index) + added(index).slice(0, 12) : old(index)));
  const appends = files.map((path, index) => ({ path, at: Buffer.byteLength(old(index)), bytes: Buffer.from(added(index)).toString("base64") }));
  writeFileSync(join(store, COMMIT_JOURNAL), JSON.stringify({ renames: [], appends }));
  return store;
}

describe("readCommittedFiles (a commit that appends)", () => {
  it.each([0, 1, 2, 3])("reads a commit killed after %i of its 3 appends as done: every entry appended, none torn, never a mix", async (appended) => {
    const { entries, warnings } = await readGlobalStore(interruptedAppend(appended));
    expect(entries.map((found) => found.name)).toEqual(["Old0", "New0", "Old2", "New2", "Old1", "New1"]);
    expect(warnings).toEqual([]);
  });

  it.each([0, 2])("reads a commit killed after %i of its 3 appends as done in the calling thread too (a session start's inThread)", async (appended) => {
    const store = interruptedAppend(appended);
    const { entries, warnings } = await readGlobalStore(store, { cache: { dir: join(store, ".cache"), salt: "test", inThread: true } });
    expect(entries.map((found) => found.name)).toEqual(["Old0", "New0", "Old2", "New2", "Old1", "New1"]);
    expect(warnings).toEqual([]);
  });

  it("keeps no entries of a file read while a commit appends to it: they are not the file's own bytes", async () => {
    const store = interruptedAppend(3);
    const cache = { dir: join(store, ".cache"), salt: "test", now: () => Date.now() + 60_000 };
    expect((await readGlobalStore(store, { cache })).entries).toHaveLength(6);
    expect(existsSync(entryFileCachePath(cache, join(store, "heuristics.md")))).toBe(false);
    // Once the journal is gone (the commit done), the file is read as itself, and kept.
    rmSync(join(store, COMMIT_JOURNAL));
    expect((await readGlobalStore(store, { cache })).entries).toHaveLength(6);
    expect(existsSync(entryFileCachePath(cache, join(store, "heuristics.md")))).toBe(true);
  });

  it("takes no append a journal names for a file outside the store", async () => {
    const store = makeTempDir();
    const target = join(store, "heuristics.md");
    writeFileSync(target, entry("Real", 1));
    const elsewhere = join(makeTempDir(), "heuristics.md");
    writeFileSync(join(store, COMMIT_JOURNAL), JSON.stringify({ renames: [], appends: [{ path: elsewhere, at: 0, bytes: Buffer.from(entry("Forged", 9)).toString("base64") }] }));
    expect((await readGlobalStore(store)).entries.map((found) => found.name)).toEqual(["Real"]);
  });
});

describe("diagnoseMemory (an interrupted commit)", () => {
  it("reports a pending journal as a warning, and the next writer completes it", async () => {
    const { diagnoseMemory } = await import("./diagnose-memory.js");
    const { withStoreLock } = await import("./with-store-lock.js");
    const store = interrupted(1);
    const projectRoot = makeTempDir();
    const check = (await diagnoseMemory({ projectRoot, globalStoreDir: store })).find((found) => found.name === "global store")!;
    expect(check.status).toBe("warning");
    expect(check.details).toContain(`${join(store, COMMIT_JOURNAL)}: a change to the store was interrupted (its writer stopped mid-commit); readers already see it as done, and the next change to the store completes it`);
    await withStoreLock(store, async () => undefined);
    const after = (await diagnoseMemory({ projectRoot, globalStoreDir: store })).find((found) => found.name === "global store")!;
    expect(after.details.some((detail) => detail.includes(COMMIT_JOURNAL))).toBe(false);
    expect((await readGlobalStore(store)).entries.map((found) => found.observationCount)).toEqual([2, 2, 2]);
  });
});

describe("readLessons (an interrupted forget)", () => {
  it("reads a forget killed between its renames as done: the lesson in archive.jsonl only, never in both or neither", async () => {
    const { readLessons } = await import("./lessons-store.js");
    const lesson = (id: string) => `{"id":"${id}","ts":"2026-04-03T14:00:00Z","run_id":"r1","type":"pattern","source":"guardian","description":"Lesson ${id}","frequency":1,"severity":"bug","domain":"code","tags":["x"],"last_seen_run":"r1","runs_since_last_seen":0}\n`;
    for (const renamed of [0, 1]) {
      const directory = makeTempDir();
      const lessons = join(directory, "lessons.jsonl");
      const archive = join(directory, "archive.jsonl");
      writeFileSync(lessons, lesson("m-001") + lesson("m-002"));
      const renames = [
        { from: `${lessons}.iflow-0123456789abcdef.tmp`, to: lessons, content: lesson("m-001") },
        { from: `${archive}.iflow-0123456789abcdef.tmp`, to: archive, content: lesson("m-002") },
      ];
      renames.forEach(({ from, to, content }, index) => writeFileSync(index < renamed ? to : from, content));
      writeFileSync(join(directory, COMMIT_JOURNAL), JSON.stringify({ renames: renames.map(({ from, to }) => ({ from, to })) }));
      const read = await readLessons(directory);
      expect([read.lessons.map((found) => found.id), read.archive.map((found) => found.id)]).toEqual([["m-001"], ["m-002"]]);
    }
  });
});
