// What a resident process would answer a hook with (bench/hook-bench.mjs, for the floors of a
// hook that asks one instead of working itself): it listens on the socket named by argv[2] and
// answers each request — one line of JSON, the hook's stdin — with one line: the text in
// argv[3] (an injection the hook would print), after running `git status` in the request's cwd
// when the request is a session start. It holds nothing else: no index, no ranking, no records.
// Not part of the product.
const { spawn } = require("node:child_process");
const { readFileSync, rmSync } = require("node:fs");
const { createServer } = require("node:net");

const [path, answerFile] = process.argv.slice(2);
const context = readFileSync(answerFile, "utf8");
const answer = (input) => `${JSON.stringify({ hookSpecificOutput: { hookEventName: input.hook_event_name, additionalContext: context } })}\n`;
rmSync(path, { force: true });
// Half-open: the hook ends its side once it has sent its request, and waits for the answer.
const server = createServer({ allowHalfOpen: true }, (connection) => {
  let request = "";
  connection.on("data", (chunk) => {
    request += chunk;
    if (!request.includes("\n")) return;
    const input = JSON.parse(request);
    if (input.hook_event_name !== "SessionStart") return void connection.end(answer(input));
    const git = spawn("git", ["--no-pager", "status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames", "--ignore-submodules=dirty"], {
      cwd: input.cwd,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
    });
    git.stdout.resume();
    git.on("close", () => connection.end(answer(input)));
  });
});
server.listen(path, () => process.stdout.write("listening\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
