/**
 * The paths in `git status --porcelain=v1 -z` output, in git's order: staged, unstaged and
 * untracked alike (an untracked folder is one path ending in `/`). A rename or copy gives its
 * new path. Paths are relative to the repository's top folder, exactly as git wrote them.
 *
 * @example
 * parseGitStatus("M  src/a.ts\0 M src/b.ts\0?? notes/\0");
 * // ["src/a.ts", "src/b.ts", "notes/"]
 */
export function parseGitStatus(output: string): string[] {
  const records = output.split("\0");
  const paths: string[] = [];
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index]!;
    if (record.length < 4 || record[2] !== " ") continue;
    paths.push(record.slice(3));
    // A rename or copy is followed by its original path, a record of its own.
    if ("RC".includes(record[0]!) || "RC".includes(record[1]!)) index += 1;
  }
  return paths;
}
