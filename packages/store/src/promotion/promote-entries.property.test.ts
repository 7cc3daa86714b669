import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES, parseKnowledgeBank } from "@iflow-memory/parser";
import { hostileText, makeTempDir } from "@iflow-memory/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { promoteEntries } from "./promote-entries.js";
import { StoreError } from "../store-error.js";

const SENTINEL = "# Global Heuristics\n\n### Heuristic: Sentinel\nAn entry no promotion here may touch.\n- Content-Hash: sha256:0\n- Source: elsewhere, Feature #1\n- Observation count: 7\n- Tags: universal\n";
const text = () => fc.oneof(hostileText(), fc.string({ unit: "binary", maxLength: 24 }));

const storeEntries = (store: string) =>
  CATEGORIES.flatMap((category) => {
    let file = "";
    try {
      file = readFileSync(join(store, `${category}.md`), "utf8");
    } catch {
      return [];
    }
    return parseKnowledgeBank(file, { category, scope: "global", path: category }).entries.map((entry) => ({ hash: entry.contentHash, count: entry.observationCount }));
  });

describe("promoteEntries (property)", () => {
  it("never lets any text in an entry, a project name, a feature id or a folder name add an entry that was not promoted, or change another entry's count", async () => {
    const sentinel = parseKnowledgeBank(SENTINEL, { category: "heuristics", scope: "global", path: "h" }).entries[0]!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ header: text(), description: text(), metadata: text() }), { minLength: 1, maxLength: 3 }),
        fc.option(text(), { nil: undefined }),
        fc.option(text(), { nil: undefined }),
        text(),
        async (entries, project, feature, folder) => {
          const base = makeTempDir();
          const root = join(base, `p${folder.replace(/[/\0]/g, "_").slice(0, 100)}`);
          const store = join(base, "store");
          mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
          mkdirSync(store);
          writeFileSync(join(store, "heuristics.md"), SENTINEL);
          const bank = entries.map((entry) => `### Heuristic: ${entry.header}\n${entry.description}\n- Tags: ${entry.metadata}\n`).join("\n");
          writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), bank);
          writeFileSync(join(root, "docs/knowledge-bank/patterns.md"), bank.replaceAll("### Heuristic: ", "### Pattern: "));
          let results: Array<{ contentHash: string; action: string }> = [];
          try {
            results = (await promoteEntries({ projectRoot: root, globalStoreDir: store, project, feature, selection: { kind: "all" } })).entries;
          } catch (error) {
            if (!(error instanceof StoreError)) throw error;
          }
          const expected = new Map<string, number>([[sentinel.contentHash, 7]]);
          for (const result of results) {
            if (result.action === "added" || result.action === "counted") expected.set(result.contentHash, (expected.get(result.contentHash) ?? 0) + 1);
          }
          const actual = storeEntries(store);
          expect(actual.length).toBe(expected.size);
          expect(new Map(actual.map((entry) => [entry.hash, entry.count]))).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it("writes the same bytes and reports the same results whether the store's promotion index is used or not", async () => {
    const lessons = fc.array(fc.record({ header: text(), description: text(), metadata: text() }), { minLength: 1, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(lessons, lessons, fc.boolean(), async (first, second, repeat) => {
        const base = makeTempDir();
        const root = join(base, "project");
        mkdirSync(join(root, "docs/knowledge-bank"), { recursive: true });
        const bank = (entries: ReadonlyArray<(typeof first)[number]>) => entries.map((entry) => `### Heuristic: ${entry.header}\n${entry.description}\n- Tags: ${entry.metadata}\n`).join("\n");
        const run = async (withIndex: boolean) => {
          const store = join(base, `store-${withIndex}`);
          mkdirSync(store, { recursive: true });
          writeFileSync(join(store, "heuristics.md"), SENTINEL);
          const outcomes: unknown[] = [];
          for (const [feature, entries] of [["1", first], ["2", repeat ? first : second], ["3", [...first, ...second]]] as const) {
            writeFileSync(join(root, "docs/knowledge-bank/heuristics.md"), bank(entries));
            if (!withIndex) rmSync(join(store, ".cache"), { recursive: true, force: true });
            try {
              outcomes.push((await promoteEntries({ projectRoot: root, globalStoreDir: store, feature, selection: { kind: "all" }, now: new Date("2026-11-22T10:00:00Z") })).entries);
            } catch (error) {
              if (!(error instanceof StoreError)) throw error;
              outcomes.push(error.code);
            }
          }
          return { outcomes, file: readFileSync(join(store, "heuristics.md"), "latin1") };
        };
        expect(await run(true)).toEqual(await run(false));
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});
