// Floor: a session start that reads its stdin JSON and waits for `git status` with the arguments
// the signals use (gather-session-signals.ts) in the stdin's cwd — and does nothing else: no
// cache, no index, no ranking, no output. Git is run as a hook runs it where it has nothing else
// to do meanwhile (`runGitNow`: spawnSync, whose answer comes sooner in a process this young than
// that of a spawn and a wait).
const { spawnSync } = require("node:child_process");

require("./read-stdin.cjs")((input) => {
  const git = spawnSync("git", ["--no-pager", "status", "--porcelain=v1", "-z", "--untracked-files=normal", "--no-renames", "--ignore-submodules=dirty"], {
    cwd: input.cwd,
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
  });
  if (git.status !== 0 || !String(git.stdout).includes("semantic_memory/")) process.exitCode = 1;
});
