import { spawn } from "node:child_process";

/**
 * Opens an address in the user's browser (`open` on macOS, `start` on Windows, `xdg-open`
 * elsewhere), detached. Resolves with null once started, or with why it could not be.
 *
 * @example
 * const problem = await openInBrowser(viewer.url); // null, or "xdg-open: ENOENT"
 */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const [command, args] = platform === "darwin" ? ["open", [url]] : platform === "win32" ? ["cmd", ["/c", "start", '""', url]] : ["xdg-open", [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { detached: true, stdio: "ignore" });
      child.once("error", (error: NodeJS.ErrnoException) => resolve(`${command}: ${error.code ?? error.message}`));
      child.once("spawn", () => {
        child.unref();
        resolve(null);
      });
    } catch (error) {
      resolve(`${command}: ${(error as Error).message}`);
    }
  });
}
