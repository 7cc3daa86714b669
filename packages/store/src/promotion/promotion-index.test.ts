import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseKnowledgeBank } from "@iflow-memory/parser";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { openGlobalStoreFile } from "./global-store-file.js";
import { promoteEntries } from "./promote-entries.js";
import { contentChecksum, createPromotionIndex, encodePromotionIndex, findInPromotionIndex, promotionIndexPath, readPromotionIndex, updatePromotionIndex, type FileStamp } from "./promotion-index.js";

const now = new Date("2026-11-22T10:00:00Z");
const FIRST = "### Heuristic: Read Errors Twice\nRead the whole error before changing code.\n";
const SECOND = "### Heuristic: Small Commits\nCommit one concern at a time.\n";
const HAND_WRITTEN = "### Heuristic: Written By Hand\nPin the toolchain in one place.\n- Observation count: 4\n";

// A store promoted into once (so that it has an index), and a project whose next promotion
// observes `lesson` once more if the store holds it.
function storeWithIndex(): { store: string; promote: (lesson: string, feature: string) => Promise<string[]> } {
  const base = makeTempDir();
  const store = join(base, "store");
  const promote = async (lesson: string, feature: string) => {
    const root = join(base, `project-${feature}`);
    mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
    writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), lesson);
    const result = await promoteEntries({ projectRoot: root, globalStoreDir: store, feature, selection: { kind: "all" }, now });
    return result.entries.map((entry) => `${entry.name}: ${entry.action} ${entry.observationCount}`);
  };
  return { store, promote };
}

const counts = (store: string) =>
  parseKnowledgeBank(readFileSync(join(store, "heuristics.md"), "utf8"), { category: "heuristics", scope: "global", path: "h" }).entries.map((entry) => `${entry.name} ${entry.observationCount}`);

const stampOf = (path: string): FileStamp => {
  const info = statSync(path, { bigint: true });
  return { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino };
};

describe("promoteEntries with a promotion index", () => {
  it("writes an index beside the store and finds an entry through it", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST + "\n" + SECOND, "1");
    expect(existsSync(promotionIndexPath(store, "heuristics"))).toBe(true);
    expect(await promote(SECOND, "2")).toEqual(["Small Commits: counted 2"]);
    expect(counts(store)).toEqual(["Read Errors Twice 1", "Small Commits 2"]);
  });

  it("ignores a stale index (the file edited by hand since) and rebuilds it", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST, "1");
    // Written long after the file last changed, as far as it says: only the stamp can tell.
    const indexPath = promotionIndexPath(store, "heuristics");
    writeFileSync(indexPath, readFileSync(indexPath, "latin1").replace(/"written":\d+/, `"written":${Date.now() + 3_600_000}`), "latin1");
    const path = join(store, "heuristics.md");
    writeFileSync(path, readFileSync(path, "utf8").replace("### Heuristic: Read Errors Twice", `${HAND_WRITTEN}\n### Heuristic: Read Errors Twice`));
    // Trusted, the old index would not know the entry written by hand: it would be added twice.
    expect(await promote(HAND_WRITTEN, "2")).toEqual(["Written By Hand: counted 5"]);
    expect(await promote(FIRST, "3")).toEqual(["Read Errors Twice: counted 2"]);
    expect(counts(store)).toEqual(["Written By Hand 5", "Read Errors Twice 2"]);
  });

  it("ignores a damaged index (records that do not match their checksum) and rebuilds it", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST + "\n" + SECOND, "1");
    const indexPath = promotionIndexPath(store, "heuristics");
    const bytes = readFileSync(indexPath);
    // One record's hash changed: trusted, the index would not find that entry.
    const record = bytes.length - 30;
    bytes[record] = bytes[record] === 0x30 ? 0x31 : 0x30;
    writeFileSync(indexPath, bytes);
    expect(await promote(FIRST + "\n" + SECOND, "2")).toEqual(["Read Errors Twice: counted 2", "Small Commits: counted 2"]);
    expect(counts(store)).toEqual(["Read Errors Twice 2", "Small Commits 2"]);
    writeFileSync(indexPath, "iflow-memory promotion index\n{not json\n");
    expect(await promote(SECOND, "3")).toEqual(["Small Commits: counted 3"]);
    expect(counts(store)).toEqual(["Read Errors Twice 2", "Small Commits 3"]);
  });

  it("ignores an index of another version, however well it matches the file", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST, "1");
    const path = join(store, "heuristics.md");
    const indexPath = promotionIndexPath(store, "heuristics");
    // Stamped with the file as it is, and checksummed, but of version 0 and holding no entry:
    // trusted, it would have the entry added a second time.
    const empty = createPromotionIndex([], { openFence: false, openComment: false });
    writeFileSync(indexPath, encodePromotionIndex(empty, { checksum: contentChecksum([readFileSync(path)]), stamp: stampOf(path) }, Date.now(), 0));
    expect(await promote(FIRST, "2")).toEqual(["Read Errors Twice: counted 2"]);
    expect(counts(store)).toEqual(["Read Errors Twice 2"]);
  });

  it("checks the bytes of a file changed within the settling time of its index (same stamp, other content)", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST, "1");
    const path = join(store, "heuristics.md");
    const indexPath = promotionIndexPath(store, "heuristics");
    // An index of other bytes carrying the file's stamp, written now: the same clock tick could
    // have hidden a write, so the checksum decides.
    const empty = createPromotionIndex([], { openFence: false, openComment: false });
    writeFileSync(indexPath, encodePromotionIndex(empty, { checksum: contentChecksum([Buffer.from("other bytes")]), stamp: stampOf(path) }, Date.now()));
    expect(readPromotionIndex(indexPath, { bytes: readFileSync(path), stamp: stampOf(path) })).toBeNull();
    expect(await promote(FIRST, "2")).toEqual(["Read Errors Twice: counted 2"]);
    expect(counts(store)).toEqual(["Read Errors Twice 2"]);
  });

  it("marks each file its commit wrote, and trusts a fresh index without the bytes only while the file keeps that mark", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST, "1");
    await promote(SECOND, "2"); // appended
    const path = join(store, "heuristics.md");
    const indexPath = promotionIndexPath(store, "heuristics");
    const header = JSON.parse(readFileSync(indexPath, "latin1").split("\n")[1]!) as { marked?: string; written: number };
    const stamp = stampOf(path);
    // Written within the settling time of its index, yet trusted without a look at the bytes: the mark is the file's.
    expect(header.marked).toBe(String(stamp.mtimeNs));
    expect(stamp.mtimeNs % 1_000_000n).not.toBe(0n);
    expect(header.written - Number(stamp.mtimeNs / 1_000_000n)).toBeLessThan(2_000);
    expect(readPromotionIndex(indexPath, { stamp })).not.toBeNull();
    // Any later write takes the kernel's time, not the mark — one of the same size at once, too,
    // where the clock's tick could leave an unmarked stamp as it was: the index is not trusted.
    writeFileSync(path, readFileSync(path, "utf8").replace("### Heuristic: Small Commits", "### Heuristic: Small Kommits"));
    expect(stampOf(path).size).toBe(stamp.size);
    expect(stampOf(path).mtimeNs).not.toBe(stamp.mtimeNs);
    expect(readPromotionIndex(indexPath, { stamp: stampOf(path) })).toBeNull();
    expect(await promote(SECOND, "3")).toEqual(["Small Commits: counted 2"]);
    expect(counts(store)).toEqual(["Read Errors Twice 1", "Small Kommits 2"]);
  });

  it("refuses to promote into a file that another program changed after it was opened, when its bytes are read only then", async () => {
    const { store, promote } = storeWithIndex();
    await promote(FIRST + "\n" + SECOND, "1");
    const file = await openGlobalStoreFile(store, "heuristics");
    appendFileSync(join(store, "heuristics.md"), "\n### Heuristic: Written Meanwhile\nBy another program.\n");
    expect(() => file.find(readFileSync(join(store, "heuristics.md"), "utf8").match(/Content-Hash: sha256:([0-9a-f]{16})/)![1]!)).toThrow(/another program changed it while it was promoted into; nothing was changed — promote again$/);
  });

  it("gives the same bytes with the index as without it", async () => {
    const lessons = [FIRST, SECOND, HAND_WRITTEN].join("\n");
    const promoteTwice = async (withIndex: boolean) => {
      const { store, promote } = storeWithIndex();
      await promote(FIRST + "\n" + HAND_WRITTEN, "1");
      if (!withIndex) rmSync(join(store, ".cache"), { recursive: true, force: true });
      await promote(lessons, "2");
      return readFileSync(join(store, "heuristics.md"), "utf8");
    };
    expect(await promoteTwice(true)).toBe(await promoteTwice(false));
  });
});

describe("updatePromotionIndex", () => {
  it("moves the offsets after each change and puts new records in hash order", () => {
    const index = createPromotionIndex([["bbbbbbbbbbbbbbbb", 100], ["aaaaaaaaaaaaaaaa", 10], ["cccccccccccccccc", 300]], { openFence: false, openComment: false });
    const updated = updatePromotionIndex(index, { shifts: [{ offset: 10, by: 5 }, { offset: 100, by: -2 }], added: [["abababababababab", 400]], tail: { openFence: false, openComment: true } });
    expect(["aaaaaaaaaaaaaaaa", "abababababababab", "bbbbbbbbbbbbbbbb", "cccccccccccccccc", "dddddddddddddddd"].map((hash) => findInPromotionIndex(updated, hash))).toEqual([10, 400, 105, 303, undefined]);
    expect(updated.records.toString("latin1").split("\n").slice(0, -1).map((line) => line.slice(0, 16))).toEqual(["aaaaaaaaaaaaaaaa", "abababababababab", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"]);
    expect(updated.openComment).toBe(true);
  });
});
