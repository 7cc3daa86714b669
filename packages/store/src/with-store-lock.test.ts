import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { commitFiles } from "./commit-files.js";
import { LOCK_FILE, withStoreLock } from "./with-store-lock.js";

async function increment(directory: string): Promise<void> {
  await withStoreLock(directory, async () => {
    const path = join(directory, "counter");
    const value = existsSync(path) ? Number(await readFile(path, "utf8")) : 0;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    await commitFiles(directory, [{ path, content: String(value + 1) }]);
  });
}

describe("withStoreLock", () => {
  it("serialises concurrent read-modify-write cycles in one process so that none is lost", async () => {
    const directory = makeTempDir();
    await Promise.all(Array.from({ length: 40 }, () => increment(directory)));
    expect(readFileSync(join(directory, "counter"), "utf8")).toBe("40");
    expect(existsSync(join(directory, LOCK_FILE))).toBe(false);
  });

  it("serialises writers in separate processes", async () => {
    const directory = makeTempDir();
    const storeModule = join(REPO_ROOT, "packages/store/dist/index.js");
    const script = `
      import { existsSync, readFileSync } from "node:fs";
      import { join } from "node:path";
      const { withStoreLock, commitFiles } = await import(${JSON.stringify(storeModule)});
      const directory = process.argv[1];
      for (let round = 0; round < 25; round++) {
        await withStoreLock(directory, async () => {
          const path = join(directory, "counter");
          const value = existsSync(path) ? Number(readFileSync(path, "utf8")) : 0;
          await commitFiles(directory, [{ path, content: String(value + 1) }]);
        });
      }`;
    const codes = await Promise.all(
      Array.from({ length: 4 }, () => new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script, directory], { stdio: "inherit" });
        child.on("close", resolve);
      })),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(readFileSync(join(directory, "counter"), "utf8")).toBe("100");
  });

  it("recovers a lock left by a process that no longer exists", async () => {
    const directory = makeTempDir();
    const deadPid = 2 ** 22 + 12345; // above Linux's pid_max default, so never alive
    writeFileSync(join(directory, LOCK_FILE), JSON.stringify({ pid: deadPid, host: hostname(), nonce: "0123456789abcdef", created: "2026-01-01T00:00:00Z" }));
    await expect(withStoreLock(directory, async () => "done", { timeoutMs: 2_000 })).resolves.toBe("done");
  });

  it("fails with STORE_LOCKED and a one-line message when a live process keeps the lock", async () => {
    const directory = makeTempDir();
    writeFileSync(join(directory, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), nonce: "fedcba9876543210", created: new Date().toISOString() }));
    const attempt = withStoreLock(directory, async () => "never", { timeoutMs: 200 });
    await expect(attempt).rejects.toMatchObject({ code: "STORE_LOCKED" });
    await expect(attempt).rejects.toThrow(/^cannot lock .*: process \d+ on .* has held \.lock for over 0 s; try again, or delete .*\.lock if no iflow-memory is running$/);
    expect(existsSync(join(directory, LOCK_FILE))).toBe(true);
  });

  it("says when many writers kept the store busy, one after another, rather than one holding it", async () => {
    const directory = makeTempDir();
    // Writers taking turns: the lock is always held, each time by one that just took it.
    const take = () => writeFileSync(join(directory, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), nonce: "fedcba9876543210", created: new Date().toISOString() }));
    take();
    const turns = setInterval(take, 40);
    try {
      await expect(withStoreLock(directory, async () => "never", { timeoutMs: 300 })).rejects.toThrow(
        /^cannot lock .*: other iflow-memory processes kept it busy for 0 s, one after another \(now process \d+ on .*\); try again when fewer are writing$/,
      );
    } finally {
      clearInterval(turns);
    }
  });

  it("releases the lock when the action throws", async () => {
    const directory = makeTempDir();
    await expect(withStoreLock(directory, async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect(existsSync(join(directory, LOCK_FILE))).toBe(false);
  });
});

describe("withStoreLock (a store that is a file)", () => {
  it("fails with one clear line when the store path is a file", async () => {
    const file = join(makeTempDir(), "store");
    writeFileSync(file, "not a folder");
    await expect(withStoreLock(file, async () => "never")).rejects.toThrow(`cannot use ${file}: it (or a folder above it) is a file, not a directory; move it away or choose another folder`);
  });
});
