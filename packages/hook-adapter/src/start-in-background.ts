import { existsSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * Starts node on `args` (a script and its arguments) in a process of its own, a moment from now,
 * and gives its id: detached and holding none of the caller's stdio, so that whatever waits for
 * the caller (its exit, or its output closing) does not wait for it. Node starting beside the
 * caller's exit took a session start some 5 ms more on two cores, so where there is a POSIX shell
 * the process is one that waits a moment and then becomes node (`exec`: the same process, the id
 * given; undefined when node gives none). Throws where it cannot be started at all (arguments
 * node refuses): the hooks' refresh then releases its claim. What a hook or a command leaves to be
 * done after it (a cache worked out for the next run), never anything its own output needs.
 *
 * @example
 * startInBackground([join(__dirname, "session-start-aside.cjs"), projectRoot, globalStoreDir]);
 */
export function startInBackground(args: readonly string[], options: { cwd?: string } = {}): number | undefined {
  // child_process is loaded here, where it is used: most hook and command runs start nothing.
  // Node's own require, in a CommonJS bundle as in an ES module (createRequire is loaded only there).
  const { spawn } = (typeof require === "function" ? require : createRequire(import.meta.url))("node:child_process") as typeof import("node:child_process");
  const spawnOptions = { detached: true, stdio: "ignore", windowsHide: true, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) } as const;
  // The paths are the shell's arguments ($0, $@), never its script.
  const child =
    process.platform !== "win32" && existsSync(SHELL) ? spawn(SHELL, ["-c", AFTER_A_MOMENT, process.execPath, ...args], spawnOptions) : spawn(process.execPath, [...args], spawnOptions);
  child.on("error", () => undefined);
  child.unref();
  return child.pid;
}
const SHELL = "/bin/sh";
// A fraction of a second where sleep takes one (GNU, BSD, BusyBox's usual build), else a second.
const AFTER_A_MOMENT = 'sleep 0.3 2>/dev/null || sleep 1; exec "$0" "$@"';
