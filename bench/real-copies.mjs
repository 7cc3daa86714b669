// A bank made of the real bank's entries, shared by the benches that need the words of real
// learnings at a size the real bank does not have.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REAL_BANK = resolve(dirname(fileURLToPath(import.meta.url)), "../test/fixtures/corpora/iflow-kb-2026-04/docs/knowledge-bank");

/**
 * Fills a knowledge-bank folder with `total` entries, a third per category, made of the real
 * bank's, each copied with a number in its name and description (so that every copy is an entry
 * of its own): the words of real learnings, which relevance needs.
 *
 * @example
 * realCopies(5_000)(join(projectRoot, "docs/knowledge-bank"));
 */
export function realCopies(total) {
  return (directory) => {
    for (const category of ["anti-patterns", "heuristics", "patterns"]) {
      const text = readFileSync(join(REAL_BANK, `${category}.md`), "utf8").replace(/<!--[\s\S]*?-->/g, "");
      const entries = text.split(/^(?=### )/m).filter((chunk) => chunk.startsWith("### "));
      const copies = [];
      for (let index = 0; index < Math.round(total / 3); index++) {
        const [header, ...rest] = entries[index % entries.length].trimEnd().split("\n");
        copies.push(`${header} (copy ${index})\nCopy ${index}: ${rest.join("\n")}\n`);
      }
      writeFileSync(join(directory, `${category}.md`), copies.join("\n"));
    }
  };
}
