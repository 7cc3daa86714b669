import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOILERPLATE, BOILERPLATE_STARTS, commitSubjectTopic } from "./commit-subject-topic.js";

describe("commitSubjectTopic", () => {
  it.each([
    "Merge branch 'main'",
    "Merge branch 'main' into fix/checkout-double-charge",
    "Merge pull request #12 from acme/fix-retry-timeouts",
    "Merge remote-tracking branch 'origin/main'",
    "Merged PR 7: retry the checkout",
    "Merge 1a2b3c4d into 5e6f7a8b",
    'Revert "Retry the checkout POST after a timeout"',
    "Revert 1a2b3c4d5e",
    "revert: retry the checkout POST",
    'Reapply "Retry the checkout POST"',
    "wip",
    "WIP",
    "wip.",
    "Fix typo",
    "fix typos in README",
    "typo",
    "v1.2.3",
    "1.2.0-rc.1",
    "Bump version to 1.2.3",
    "Bump lodash from 4.17.20 to 4.17.21",
    "Release 1.2.0",
    "chore(release): 1.2.0",
    "chore(deps): bump yaml from 2.4.0 to 2.5.0",
    "chore: wip",
    "Initial commit",
    "Update README.md",
    "Create ci.yml",
    "Add files via upload",
    "Apply suggestions from code review",
    "Address review comments",
    "fix lint",
    "formatting",
    "minor changes",
    "updates",
    "...",
    "fixup! wip",
    "",
    "1.2.3 → 1.2.4",
  ])("gives no topic for %j", (subject) => {
    expect(commitSubjectTopic(subject)).toBeNull();
  });

  it.each([
    ["Retry only idempotent requests in the checkout client", "Retry only idempotent requests in the checkout client"],
    ["fix(checkout): retry only idempotent requests", "checkout retry only idempotent requests"],
    ["feat!: stream the memory block", "stream the memory block"],
    ["chore(deps): drop the unused glob dependency", "drop the unused glob dependency"],
    ["WIP: retry logic for the payment gateway", "retry logic for the payment gateway"],
    ["fixup! Time out embedding calls after 10 s", "Time out embedding calls after 10 s"],
    ["Merge duplicate entries by content hash", "Merge duplicate entries by content hash"],
    ["Revert to atomic writes for the state files", "Revert to atomic writes for the state files"],
    ["Fix typing of the retry config", "Fix typing of the retry config"],
    ["Release the store lock when promotion fails", "Release the store lock when promotion fails"],
    // Letters, none of them ASCII.
    ["Überprüfe Größe", "Überprüfe Größe"],
    ["修复嵌入调用超时", "修复嵌入调用超时"],
  ])("keeps what %j says about the work", (subject, topic) => {
    expect(commitSubjectTopic(subject)).toBe(topic);
  });
});

describe("BOILERPLATE_STARTS", () => {
  // The words of the patterns themselves, and their pieces: what a subject they match is made of.
  const words = [...new Set(BOILERPLATE.flatMap((pattern) => pattern.source.match(/[a-z]+/g) ?? []))];
  const firstWord = (subject: string) => /^[A-Za-z]*/.exec(subject)![0].toLowerCase();
  const holdsFor = (subject: string) => !BOILERPLATE.some((pattern) => pattern.test(subject)) || firstWord(subject) === "" || BOILERPLATE_STARTS.has(firstWord(subject));

  it("holds the first word of every subject of two of the patterns' words that a pattern matches", () => {
    let matched = 0;
    for (const first of ["", ...words]) {
      for (const separator of ["", " ", "(", "!", ":", "'"]) {
        for (const second of ["", ...words]) {
          for (const subject of [`${first}${separator}${second}`, `${first}${separator}${second} 1.2.3`, `${first} ${separator}${second}.md`]) {
            for (const cased of [subject, subject.toUpperCase(), subject.charAt(0).toUpperCase() + subject.slice(1)]) {
              if (BOILERPLATE.some((pattern) => pattern.test(cased))) matched++;
              expect(holdsFor(cased), cased).toBe(true);
            }
          }
        }
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });

  it("holds the first word of every subject a pattern matches that is a pattern's word with an ending, then what its patterns expect", () => {
    const endings = words.filter((word) => word.length <= 3);
    const leads = [...new Set([...words, ...words.flatMap((word) => endings.map((ending) => word + ending))])];
    const follows = ["typo", "typos", "a typo", "the typo", "some typos", "commit", "version", "files via upload", "suggestions from code review", "review comments", "lint", "up", "prettier", "changes", "fixes", "updates", "progress", "README.md", "1.2.3", "'main'", '"x"', "“x”", "branch 'main'", "1a2b3c4d"];
    let matched = 0;
    for (const lead of leads) {
      for (const follow of follows) {
        for (const subject of [`${lead}${follow}`, `${lead} ${follow}`, `${lead.toUpperCase()} ${follow}`]) {
          if (BOILERPLATE.some((pattern) => pattern.test(subject))) matched++;
          expect(holdsFor(subject), subject).toBe(true);
        }
      }
    }
    expect(matched).toBeGreaterThan(200);
  });

  it("holds the first word of every subject a pattern matches, of the patterns' words, spaces, marks and digits in any order (fast-check)", () => {
    const piece = fc.oneof(fc.constantFrom(...words), fc.constantFrom(" ", "  ", "(", ")", "!", ":", "'", '"', "“", ".", "-", "#", "/", "_"), fc.stringMatching(/^[0-9a-f.]{1,8}$/));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.boolean(), (pieces, upper) => {
        const subject = upper ? pieces.join("").toUpperCase() : pieces.join("");
        expect(holdsFor(subject)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });
});
