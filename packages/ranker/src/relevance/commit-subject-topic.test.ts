import { describe, expect, it } from "vitest";
import { commitSubjectTopic } from "./commit-subject-topic.js";

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
  ])("keeps what %j says about the work", (subject, topic) => {
    expect(commitSubjectTopic(subject)).toBe(topic);
  });
});
