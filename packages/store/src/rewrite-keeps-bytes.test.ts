import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { addLesson } from "./manage-lessons.js";
import { promoteEntries } from "./promotion/index.js";
import { storeMemory } from "./store-memory.js";

// Latin-1 "café", a stray continuation byte and a truncated sequence: not UTF-8.
const NOT_UTF8 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x20, 0xe2, 0x82]);
const bytes = (...parts: Array<string | Buffer>) => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : part)));

describe("rewriting a file with bytes that are not UTF-8", () => {
  it("storeMemory keeps every byte of the knowledge bank it does not change", async () => {
    const projectRoot = makeTempDir();
    mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
    const path = join(projectRoot, "docs/knowledge-bank/heuristics.md");
    const before = bytes("### Heuristic: Old\nWritten in ", NOT_UTF8, " by an old editor.\n- Observation count: 1\n");
    writeFileSync(path, before);
    await storeMemory({ projectRoot, globalStoreDir: join(projectRoot, "store"), category: "heuristics", name: "New", description: "A new learning.", now: new Date("2026-11-22T10:00:00Z") });
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString("utf8")).toBe("\n### New\nA new learning.\n- Last observed: 2026-11-22T10:00:00Z\n- Observation count: 1\n");
  });

  it("promoteEntries keeps every byte of the global store it does not change", async () => {
    const base = makeTempDir();
    const projectRoot = join(base, "webshop");
    mkdirSync(join(projectRoot, "docs/knowledge-bank"), { recursive: true });
    writeFileSync(join(projectRoot, "docs/knowledge-bank/heuristics.md"), "### Heuristic: Read Errors Twice\nRead the whole error before changing code.\n");
    const store = join(base, "store");
    await promoteEntries({ projectRoot, globalStoreDir: store, feature: "1", now: new Date("2026-11-22T10:00:00Z") });
    const path = join(store, "heuristics.md");
    const edited = bytes(readFileSync(path, "utf8"), "\n### Heuristic: Edited By Hand\nNotes in ", NOT_UTF8, ".\n- Observation count: 2\n");
    writeFileSync(path, edited);
    await promoteEntries({ projectRoot, globalStoreDir: store, feature: "2", selection: { kind: "all" }, now: new Date("2026-11-23T10:00:00Z") });
    const after = readFileSync(path);
    expect(after.includes(bytes("### Heuristic: Edited By Hand\nNotes in ", NOT_UTF8, ".\n- Observation count: 2\n"))).toBe(true);
    expect(after.toString("latin1")).toContain("- Observation count: 2\n- Last observed: 2026-11-23T10:00:00Z");
  });

  it("addLesson keeps every byte of the lessons it does not change", async () => {
    const directory = join(makeTempDir(), ".archeflow/memory");
    mkdirSync(directory, { recursive: true });
    const line = bytes('{"id":"m-001","ts":"2026-04-03T14:00:00Z","run_id":"r1","type":"pattern","source":"guardian","description":"Written in ', NOT_UTF8, '","frequency":2,"severity":"bug","domain":"writing","tags":["x"],"last_seen_run":"r1","runs_since_last_seen":0}\n');
    writeFileSync(join(directory, "lessons.jsonl"), line);
    await addLesson(directory, { description: "Prefer small steps" });
    expect(readFileSync(join(directory, "lessons.jsonl")).subarray(0, line.length).equals(line)).toBe(true);
  });
});
