import { spawn } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { commitFiles } from "./commit-files.js";
import { LOCK_FILE, withStoreLock } from "./with-store-lock.js";

// A writer in another process that takes the lock, says so, waits, then commits "holder".
function holder(directory: string) {
  const storeModule = join(REPO_ROOT, "packages/store/dist/index.js");
  const script = `
    const { withStoreLock, commitFiles } = await import(${JSON.stringify(storeModule)});
    const { join } = await import("node:path");
    const directory = process.argv[1];
    await withStoreLock(directory, async () => {
      process.stdout.write("locked\\n");
      await new Promise((resolve) => setTimeout(resolve, 300));
      await commitFiles(directory, [{ path: join(directory, "value"), content: "holder" }]);
    }, { staleMs: 100 });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, directory], { stdio: ["ignore", "pipe", "inherit"] });
  const locked = new Promise<void>((resolve) => child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, locked, exited };
}

describe("withStoreLock (a stalled holder)", () => {
  it("never breaks the lock of a live holder on this host, however long it stalls past the stale timeout", async () => {
    const directory = makeTempDir();
    const { child, locked, exited } = holder(directory);
    await locked;
    child.kill("SIGSTOP");
    try {
      const waiter = withStoreLock(directory, async () => commitFiles(directory, [{ path: join(directory, "value"), content: "waiter" }]), { staleMs: 100, timeoutMs: 1_000 });
      await expect(waiter).rejects.toMatchObject({ code: "STORE_LOCKED" });
      expect(existsSync(join(directory, "value"))).toBe(false);
    } finally {
      child.kill("SIGCONT");
    }
    expect(await exited).toBe(0);
    expect(readFileSync(join(directory, "value"), "utf8")).toBe("holder");
  });

  it("breaks the lock of a holder on another host once its heartbeat is older than the stale timeout, and not before", async () => {
    const directory = makeTempDir();
    const lock = join(directory, LOCK_FILE);
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere.example", nonce: "0123456789abcdef", created: new Date().toISOString() }));
    await expect(withStoreLock(directory, async () => "taken", { staleMs: 5_000, timeoutMs: 300 })).rejects.toMatchObject({ code: "STORE_LOCKED" });
    const old = new Date(Date.now() - 10_000);
    utimesSync(lock, old, old);
    await expect(withStoreLock(directory, async () => "taken", { staleMs: 5_000, timeoutMs: 300 })).resolves.toBe("taken");
  });

  it("keeps the lock's heartbeat fresh while its holder works, so that it is never taken for stale", async () => {
    const directory = makeTempDir();
    const lock = join(directory, LOCK_FILE);
    await withStoreLock(
      directory,
      async () => {
        const old = new Date(Date.now() - 60_000);
        utimesSync(lock, old, old);
        await new Promise((resolve) => setTimeout(resolve, 250));
        const { mtimeMs } = (await import("node:fs")).statSync(lock);
        expect(Date.now() - mtimeMs).toBeLessThan(1_000);
      },
      { staleMs: 300 },
    );
  });

  it("refuses to commit when its lock was taken away meanwhile, and changes nothing", async () => {
    const directory = makeTempDir();
    const attempt = withStoreLock(directory, async () => {
      writeFileSync(join(directory, LOCK_FILE), JSON.stringify({ pid: 1, host: "elsewhere.example", nonce: "fedcba9876543210", created: new Date().toISOString() }));
      await commitFiles(directory, [{ path: join(directory, "value"), content: "late" }]);
    });
    await expect(attempt).rejects.toMatchObject({ code: "STORE_LOCKED" });
    await expect(attempt).rejects.toThrow(/^cannot commit .*: another process took the store's lock .*; nothing was changed/);
    expect(existsSync(join(directory, "value"))).toBe(false);
  });
});
