import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { claimSessionEvent, SESSION_CLAIM_WINDOW_MS } from "./claim-session-event.js";
import { recordInSessionLedger } from "./session-ledger.js";

describe("claimSessionEvent", () => {
  it("lets the first hook of a session's event inject, not a second; another event or session is claimed apart", () => {
    const store = makeTempDir();
    // A store without its cache folder yet: the first claim makes it (private).
    expect([claimSessionEvent(store, "s", "startup"), claimSessionEvent(store, "s", "startup"), claimSessionEvent(store, "s", "prompt-1a2b"), claimSessionEvent(store, "t", "startup")]).toEqual([true, false, true, true]);
    const folder = join(store, ".cache", "sessions");
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder).sort()).toEqual(["s.prompt-1a2b.claim", "s.startup.claim", "t.startup.claim"]);
  });

  it("takes over a claim older than its window (a later event of the same name), once", () => {
    const store = makeTempDir();
    const now = Date.now();
    expect(claimSessionEvent(store, "s", "resume", () => now)).toBe(true);
    const claim = join(store, ".cache", "sessions", "s.resume.claim");
    const old = (now - SESSION_CLAIM_WINDOW_MS - 1000) / 1000;
    utimesSync(claim, old, old);
    expect([claimSessionEvent(store, "s", "resume", () => now), claimSessionEvent(store, "s", "resume", () => now)]).toEqual([true, false]);
    expect(readdirSync(join(store, ".cache", "sessions"))).toEqual(["s.resume.claim"]);
  });

  it("lets the hook inject when no claim can be made (the store is a file), and claims beside a ledger already there", () => {
    const file = join(makeTempDir(), "store");
    writeFileSync(file, "not a folder\n");
    expect([claimSessionEvent(file, "s", "startup"), claimSessionEvent(file, "s", "startup")]).toEqual([true, true]);

    const store = makeTempDir();
    recordInSessionLedger(store, "s", ["0000000000000001"]);
    expect([claimSessionEvent(store, "s", "startup"), claimSessionEvent(store, "s", "startup")]).toEqual([true, false]);
    expect(existsSync(join(store, ".cache", "sessions", "s.txt"))).toBe(true);
  });
});
