import { existsSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { readSessionLedger, recordInSessionLedger, SESSION_LEDGER_MAX_AGE_MS, sessionLedgerPath } from "./session-ledger.js";

const DAY = 24 * 60 * 60 * 1000;

describe("recordInSessionLedger / readSessionLedger", () => {
  it("keeps what each session was given, apart from other sessions", () => {
    const store = makeTempDir();
    recordInSessionLedger(store, "a", ["0000000000000001", "0000000000000002"]);
    recordInSessionLedger(store, "a", ["0000000000000003"]);
    recordInSessionLedger(store, "b", ["0000000000000009"]);
    expect([...readSessionLedger(store, "a")]).toEqual(["0000000000000001", "0000000000000002", "0000000000000003"]);
    expect([...readSessionLedger(store, "b")]).toEqual(["0000000000000009"]);
    expect(readSessionLedger(store, "never").size).toBe(0);
  });

  it("names a session id that is no safe file name by its hex, inside the cache folder", () => {
    const store = makeTempDir();
    expect(sessionLedgerPath(store, "../../etc/passwd").startsWith(join(store, ".cache", "sessions", "x-"))).toBe(true);
    recordInSessionLedger(store, "../../etc/passwd", ["0000000000000001"]);
    expect([...readSessionLedger(store, "../../etc/passwd")]).toEqual(["0000000000000001"]);
  });

  it("removes ledgers older than a week when a new session starts, at most once a day", () => {
    const store = makeTempDir();
    const now = Date.now();
    recordInSessionLedger(store, "old", ["0000000000000001"], now);
    const old = sessionLedgerPath(store, "old");
    const stale = (now - SESSION_LEDGER_MAX_AGE_MS - DAY) / 1000;
    utimesSync(old, stale, stale);
    // Pruned today already (by the first ledger): the old one stays until tomorrow.
    recordInSessionLedger(store, "new", ["0000000000000002"], now);
    expect(existsSync(old)).toBe(true);
    recordInSessionLedger(store, "newer", ["0000000000000003"], now + DAY + 1);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(join(store, ".cache", "sessions")).sort()).toEqual([".pruned", "new.txt", "newer.txt"]);
  });

  it("ignores lines that are not content hashes", () => {
    const store = makeTempDir();
    recordInSessionLedger(store, "s", ["0000000000000001"]);
    writeFileSync(sessionLedgerPath(store, "s"), "0000000000000001\ngarbage\n\n", { flag: "a" });
    expect([...readSessionLedger(store, "s")]).toEqual(["0000000000000001"]);
  });
});
