import { homedir } from "node:os";
import { resolve } from "node:path";
import { findProjectRoot, resolveGlobalStoreDir } from "@iflow-memory/store";
import type { Command } from "commander";
import { RuntimeError } from "./errors.js";
import { installChecks } from "./install-checks.js";
import type { CliIO } from "./io.js";

interface UiOptions {
  projectRoot?: string;
  globalStore?: string;
  port: number;
  open?: boolean;
}

/**
 * `iflow-memory ui`: the local viewer. Its first line on stdout is the address to open (with the
 * run's token); it serves until Ctrl-C or SIGTERM, then exits 0. The viewer's code is loaded only
 * by this command.
 */
export function registerUiCommand(program: Command, io: CliIO, setExitCode: (code: number) => void, parsePort: (value: string) => number): void {
  program
    .command("ui")
    .description("a local web page to browse, search and curate memory (127.0.0.1 only, behind a per-run token)")
    .option("--project-root <dir>", "the project (default: the nearest folder above the current one with .git or docs/knowledge-bank)")
    .option("--global-store <dir>", "the global store (default: $IFLOW_MEMORY_HOME, else ~/.claude/iflow/memory)")
    .option("--port <n>", "the port on 127.0.0.1; 0 takes a free one", parsePort, 0)
    .option("--open", "also open the page in the default browser")
    .action(async (options: UiOptions) => {
      const projectRoot = options.projectRoot === undefined ? await findProjectRoot(io.cwd) : resolve(io.cwd, options.projectRoot);
      const globalStoreDir = resolveGlobalStoreDir({ flag: options.globalStore === undefined ? undefined : resolve(io.cwd, options.globalStore), env: io.env });
      const { openInBrowser, startViewer } = await import("@iflow-memory/viewer");
      const home = io.env.HOME !== undefined && io.env.HOME !== "" ? io.env.HOME : homedir();
      const moreChecks = () => installChecks(io.env, home, projectRoot);
      const viewer = await startViewer({ projectRoot, globalStoreDir, port: options.port, moreChecks }).catch((error: NodeJS.ErrnoException) => {
        const why = error.code === "EADDRINUSE" ? "the port is in use; choose another --port, or 0 for a free one" : error.code ?? error.message;
        throw new RuntimeError("LISTEN_FAILED", `cannot serve on 127.0.0.1:${options.port}: ${why}`, { cause: error });
      });
      io.stdout.write(`${viewer.url}\n`);
      io.stdout.write(`Serving ${projectRoot} and the global store ${globalStoreDir} on 127.0.0.1 only; Ctrl-C to stop.\n`);
      if (options.open === true) {
        const problem = await openInBrowser(viewer.url);
        if (problem !== null) io.stderr.write(`iflow-memory: warning: could not open a browser (${problem}); open the address above\n`);
      }
      await (io.waitForStop?.() ?? new Promise(() => undefined));
      await viewer.close();
      setExitCode(0);
    });
}
