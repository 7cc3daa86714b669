// Subjects that record how the history was made, not what the work is about: a merge, a revert,
// work in progress, a typo, a release or version bump, a tool's or a web editor's default.
// Typographic quotes and dashes are written as escapes (\u201c “, \u2013 –): esbuild leaves a
// regular expression as written, and one non-ASCII character makes V8 hold a whole hook bundle
// as two-byte text, slower to read and compile at every start (test/plugin checks the bundles).
export const BOILERPLATE: readonly RegExp[] = [
  // Merge branch 'main' into …, Merge pull request #12 from …, Merge remote-tracking branch …, Merged PR 7: …
  // (not "Merge duplicate entries by hash", which says what the work is)
  /^merge (?:branch(?:es)?|remote-tracking branch|pull request|tag|commit|changes|(?:from|into) |['"\u201c]|[0-9a-f]{7,40}\b)/i,
  /^merged (?:pr|pull request|branch|in|from|into)\b/i,
  /^(?:revert(?:ed|s)?|reapply)\s*["'\u201c]/i, // Revert "Add retries", Reapply "…"
  /^revert(?:ed|s)?\s+(?:commit\s+)?[0-9a-f]{7,40}\b/i,
  /^revert(?:\([^)]*\))?!?:/i, // revert: … (conventional commits)
  /^(?:wip|work in progress|tmp|temp|todo|misc|stuff|save|checkpoint|progress)\b[\s\W]*$/i,
  /^(?:fix(?:e[sd])?|correct(?:ed|s)?)?\s*(?:a |some |the )?typos?\b/i, // Fix typo, typos in README
  /^(?:initial|first) commit\b/i,
  /^v?\d+(?:\.\d+)+(?:[-+.][\w.-]*)?$/i, // v1.2.3, 1.2.0-rc.1
  /^(?:bump|release|releasing|prepare(?: for)? release|publish|version)\b.*\d+\.\d+/i, // Bump version to 1.2.3, Bump lodash from 4.17.20 to 4.17.21, Release 1.2.0
  /^(?:release|version bump|bump version|new version)\b[\s\W]*$/i,
  /^(?:update|create|delete|rename|add) [\w./-]+\.\w+$/i, // GitHub's web editor: Update README.md, Create ci.yml
  /^add files via upload$/i,
  /^(?:apply|applied) suggestions? from code review\b/i,
  /^(?:address(?:ed)?|resolve[ds]?|fix(?:e[sd])?) (?:pr |code |review )*(?:review )?(?:comments?|feedback|remarks|suggestions?)\b/i,
  /^(?:format(?:ting)?|lint(?:ing)?|fix lint(?:ing)?|prettier|run prettier|cleanup|clean up|tidy|minor(?: changes| fixes| updates?)?|small (?:changes|fixes)|updates?|changes|fix(?:es)?|more|again|oops|\.+|-+)[\s\W]*$/i,
];

// A conventional-commit type says what kind of change, not its topic; its scope may be the topic.
const CONVENTIONAL_TYPE = /^(?:feat|feature|fix|bugfix|hotfix|chore|docs|doc|refactor|test|tests|ci|build|perf|style|release|deps)(?:\(([^)]*)\))?!?:\s*/i;
// Git's markers of a commit to fold into another: what follows is the other commit's subject.
const AUTOSQUASH = /^(?:fixup|squash|amend)!\s*/i;
// A leading "WIP:" marks the state of the work; the rest may still say what it is.
const WIP_MARK = /^(?:\[?wip\]?|draft)\s*[:\-\u2013]\s*/i;

/**
 * What a commit subject says about the work, or null when it says nothing of it: merges, reverts,
 * "wip", "fix typo", version bumps and releases, "Initial commit", a web editor's "Update
 * README.md", "Apply suggestions from code review" and the like carry no weight in a session's
 * relevance. A conventional-commit type (`fix(checkout): `), git's `fixup! ` and a `WIP: ` mark
 * are dropped, the scope kept (it often names the topic). Pure.
 *
 * @example
 * commitSubjectTopic("fix(checkout): retry only idempotent requests"); // "checkout retry only idempotent requests"
 * commitSubjectTopic("Merge branch 'main' into fix/checkout");      // null
 * commitSubjectTopic("chore(release): 1.2.0");                       // null
 */
export function commitSubjectTopic(subject: string): string | null {
  let text = subject.trim();
  for (let previous = ""; previous !== text; ) {
    previous = text;
    text = text.replace(AUTOSQUASH, "").replace(WIP_MARK, "").trim();
    const conventional = CONVENTIONAL_TYPE.exec(text);
    if (conventional !== null) {
      const rest = text.slice(conventional[0].length).trim();
      // The release's scope ("release") and a bump's ("deps") are themselves boilerplate.
      if (isBoilerplate(rest) || rest === "") return null;
      const scope = (conventional[1] ?? "").trim();
      text = scope === "" || /^(?:release|deps?|dependencies|version)$/i.test(scope) ? rest : `${scope} ${rest}`;
    }
  }
  if (text === "" || !hasLetter(text) || isBoilerplate(text)) return null;
  return text;
}

// An ASCII letter first: the Unicode class costs a session start some 0.3 ms to compile (and
// 0.2 ms to construct, so it is made at first use), and most subjects have one.
const ASCII_LETTER = /[A-Za-z]/;
let letter: RegExp | undefined;
function hasLetter(text: string): boolean {
  return ASCII_LETTER.test(text) || (letter ??= /\p{L}/u).test(text);
}

/**
 * The words (lowercased ASCII letters) a subject that one of the boilerplate patterns matches
 * can begin with, up to its first character that is not such a letter; a subject that begins
 * with no such letter may match too. Worked out from the patterns by hand, and checked against
 * them (commit-subject-topic.test.ts). A subject that begins with any other word is none: its
 * patterns are not run, which spares a session start compiling them (some 2 ms).
 */
export const BOILERPLATE_STARTS: ReadonlySet<string> = new Set([
  ...["merge", "merged", "revert", "reverted", "reverts", "reapply"],
  ...["wip", "work", "tmp", "temp", "todo", "misc", "stuff", "save", "checkpoint", "progress"],
  // "Fix typo", "fixtypo", "correct the typo", "fixthe typo", "a typo", "typos".
  ...["", "fix", "fixes", "fixed", "correct", "corrected", "corrects"].flatMap((lead) => [lead, ...["typo", "typos", "a", "some", "the"].map((next) => lead + next)]).filter((word) => word !== ""),
  ...["initial", "first", "v", "bump", "release", "releasing", "prepare", "publish", "version", "new"],
  ...["update", "updates", "create", "delete", "rename", "add", "apply", "applied", "address", "addressed", "resolve", "resolved", "resolves"],
  ...["format", "formatting", "lint", "linting", "prettier", "run", "cleanup", "clean", "tidy", "minor", "small", "changes", "more", "again", "oops"],
]);

const FIRST_WORD = /^[A-Za-z]*/;

function isBoilerplate(text: string): boolean {
  const first = FIRST_WORD.exec(text)![0].toLowerCase();
  if (first !== "" && !BOILERPLATE_STARTS.has(first)) return false;
  return BOILERPLATE.some((pattern) => pattern.test(text));
}
