import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HOOK_BIN, runNode } from "@iflow-memory/test-utils";
import { startViewer } from "@iflow-memory/viewer";
import { describe, expect, it } from "vitest";
import { rawRequest, realBank } from "./run-ui.js";

// The viewer's search shares the session-start hook's cached index (the MCP server's searcher):
// its pages are the same with the cache as without it.

const PAGES = ["/", "/?q=embedding+retry+timeouts", "/?q=migration+fails+in+CI&category=anti-patterns", "/?q=plan+the+order+of+phases&page=2", "/entry/0baa2a5b66eb2269"];

async function pages(projectRoot: string, globalStoreDir: string): Promise<string[]> {
  const viewer = await startViewer({ projectRoot, globalStoreDir, token: "t".repeat(43) });
  try {
    const bodies = [];
    for (const path of PAGES) {
      const page = await rawRequest(viewer.port, "GET", path, { host: `127.0.0.1:${viewer.port}`, cookie: `iflow-memory-${viewer.port}=${"t".repeat(43)}` });
      expect(page.status, path).toBe(200);
      bodies.push(page.body);
    }
    return bodies;
  } finally {
    await viewer.close();
  }
}

describe("the viewer and the hooks' cache", () => {
  it("shows the same pages from the session-start hook's cache as from the files, and leaves the cache when there was none", async () => {
    const { projectRoot, store, env } = await realBank();
    // The caches keep only files unchanged for two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    rmSync(join(store, ".cache"), { recursive: true, force: true });
    const fromFiles = await pages(projectRoot, store);
    expect(readdirSync(join(store, ".cache")).some((name) => name.endsWith(".ranking.json"))).toBe(true);

    rmSync(join(store, ".cache"), { recursive: true });
    await runNode(HOOK_BIN, [], { env, stdin: JSON.stringify({ cwd: projectRoot, source: "startup" }) });
    expect(existsSync(join(store, ".cache"))).toBe(true);
    expect(await pages(projectRoot, store)).toEqual(fromFiles);
  });
});
