// Floor: a session start that reads its stdin JSON and waits for `git status` with the arguments
// the signals use (gather-session-signals.ts) in the stdin's cwd — and does nothing else: no
// cache, no index, no ranking, no output.
const { spawn } = require("node:child_process");

require("./read-stdin.cjs")((input) => {
  const git = spawn("git", ["--no-pager", "status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames", "--ignore-submodules=dirty"], {
    cwd: input.cwd,
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
  });
  let output = "";
  git.stdout.on("data", (chunk) => (output += chunk));
  git.on("close", (code) => {
    if (code !== 0 || !output.includes("semantic_memory/")) process.exitCode = 1;
  });
});
