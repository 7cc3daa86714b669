import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, REPO_ROOT } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { appendInjectionHistory, createHistoryRecord, HISTORY_FILE, HISTORY_ROTATED_FILE, type HistoryRecord } from "./append-injection-history.js";
import { readInjectionHistory } from "./read-injection-history.js";

const plan = {
  block: "## Engineering Memory (from knowledge bank)\n\n---\n",
  entries: [
    { name: "Retrying Non-Idempotent Requests", contentHash: "fa12a8c77f919844", matchedTerms: ["retri", "idempot"] },
    { name: "Time-Box Spikes", contentHash: "7e515d26840437ce" },
  ],
};

function record(session: string, time = "2026-11-23T10:00:00Z"): HistoryRecord {
  return { time, session, project: "webshop", event: "startup", ranking: "original", entries: [{ hash: "7e515d26840437ce", name: "Time-Box Spikes" }], chars: 120 };
}

describe("createHistoryRecord", () => {
  it("keeps the time to the second, the session, the event, each entry's hash, name and matched terms, and the characters", () => {
    expect(createHistoryRecord({ plan, project: "webshop", session: "5f0c", event: "prompt", ranking: "relevance", now: new Date("2026-11-23T10:11:12.345Z") })).toEqual({
      time: "2026-11-23T10:11:12Z",
      session: "5f0c",
      project: "webshop",
      event: "prompt",
      ranking: "relevance",
      entries: [
        { hash: "fa12a8c77f919844", name: "Retrying Non-Idempotent Requests", matched: ["retri", "idempot"] },
        { hash: "7e515d26840437ce", name: "Time-Box Spikes" },
      ],
      chars: plan.block.length,
    });
  });

  it("names the agent the injection went to when told", () => {
    const made = createHistoryRecord({ plan, project: "webshop", session: "019d036d", event: "startup", ranking: "relevance", now: new Date("2026-11-23T10:11:12Z"), agent: "codex" });
    expect([made.agent, made.session, made.event]).toEqual(["codex", "019d036d", "startup"]);
  });
});

describe("appendInjectionHistory", () => {
  it("appends one JSON line per injection to a private file in a folder it creates", () => {
    const store = join(makeTempDir(), "memory");
    appendInjectionHistory(store, record("a"));
    appendInjectionHistory(store, record("b"));
    const path = join(store, HISTORY_FILE);
    expect(readFileSync(path, "utf8").split("\n")).toEqual([JSON.stringify(record("a")), JSON.stringify(record("b")), ""]);
    expect([statSync(store).mode & 0o777, statSync(path).mode & 0o777]).toEqual([0o700, 0o600]);
  });

  it("rotates the file to .history.1.jsonl once it reaches the limit, replacing the previous generation", async () => {
    const store = makeTempDir();
    const size = `${JSON.stringify(record("s0"))}\n`.length;
    for (let index = 0; index < 10; index++) appendInjectionHistory(store, record(`s${index}`), { maxBytes: size * 3 });
    // Rotated after the 3rd, 6th and 9th line: the 7th to 9th are the previous generation, the 10th the current file.
    const sessions = (name: string) => readFileSync(join(store, name), "utf8").trim().split("\n").map((line) => (JSON.parse(line) as HistoryRecord).session);
    expect([sessions(HISTORY_ROTATED_FILE), sessions(HISTORY_FILE)]).toEqual([["s6", "s7", "s8"], ["s9"]]);
    expect((await readInjectionHistory(store)).records.map((item) => item.session)).toEqual(["s9", "s8", "s7", "s6"]);
  });

  it("only appends while another process holds the rotation claim, and removes a claim left by a process that died", () => {
    const store = makeTempDir();
    const claim = join(store, ".history.rotate");
    writeFileSync(claim, "");
    const size = `${JSON.stringify(record("s0"))}\n`.length;
    appendInjectionHistory(store, record("s0"), { maxBytes: size });
    // A fresh claim: another process is rotating; this one only appends.
    expect([existsSync(join(store, HISTORY_ROTATED_FILE)), existsSync(claim)]).toEqual([false, true]);
    utimesSync(claim, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    appendInjectionHistory(store, record("s1"), { maxBytes: size });
    appendInjectionHistory(store, record("s2"), { maxBytes: size });
    expect([existsSync(claim), readFileSync(join(store, HISTORY_ROTATED_FILE), "utf8").trim().split("\n").length, existsSync(join(store, HISTORY_FILE))]).toEqual([false, 3, false]);
  });

  it("loses no line when eight processes append and rotate at once", async () => {
    const store = makeTempDir();
    const script = join(store, "append.mjs");
    writeFileSync(
      script,
      `import { appendInjectionHistory } from ${JSON.stringify(join(REPO_ROOT, "packages/store/dist/index.js"))};
       const [store, writer] = process.argv.slice(2);
       for (let round = 0; round < 60; round++) appendInjectionHistory(store, { time: "2026-11-23T10:00:00Z", session: writer + "-" + round, project: "p", event: "startup", ranking: "original", entries: [{ hash: "7e515d26840437ce", name: "Time-Box Spikes ${"x".repeat(200)}" }], chars: 1 }, { maxBytes: 100_000 });`,
    );
    // 480 lines of some 370 bytes: the file rotates once, and both generations hold every line.
    await Promise.all(Array.from({ length: 8 }, (_, writer) => new Promise((resolve, reject) => spawn(process.execPath, [script, store, String(writer)], { stdio: "ignore" }).on("exit", resolve).on("error", reject))));
    const { records, warnings } = await readInjectionHistory(store);
    expect(warnings).toEqual([]);
    expect(existsSync(join(store, HISTORY_ROTATED_FILE))).toBe(true);
    expect(records.map((item) => item.session).sort()).toEqual(Array.from({ length: 8 }, (_, writer) => Array.from({ length: 60 }, (_, round) => `${writer}-${round}`)).flat().sort());
  });
});

describe("readInjectionHistory", () => {
  it("reads newest first, filtered by session and by entry hash prefix, and skips a torn line with a warning", async () => {
    const store = makeTempDir();
    appendInjectionHistory(store, record("a", "2026-11-23T10:00:00Z"));
    writeFileSync(join(store, HISTORY_FILE), `${readFileSync(join(store, HISTORY_FILE), "utf8")}{"time":"2026-11-2\n`);
    appendInjectionHistory(store, { ...record("b", "2026-11-23T11:00:00Z"), entries: [{ hash: "fa12a8c77f919844", name: "Retrying Non-Idempotent Requests" }] });
    const all = await readInjectionHistory(store);
    expect(all).toEqual({ records: [{ ...record("b", "2026-11-23T11:00:00Z"), entries: [{ hash: "fa12a8c77f919844", name: "Retrying Non-Idempotent Requests" }] }, record("a")], warnings: [`${join(store, HISTORY_FILE)}: 1 line is not an injection record; skipped`] });
    expect((await readInjectionHistory(store, { session: "a" })).records).toEqual([record("a")]);
    expect((await readInjectionHistory(store, { entry: "sha256:fa12" })).records.map((item) => item.session)).toEqual(["b"]);
    expect(await readInjectionHistory(join(store, "none"))).toEqual({ records: [], warnings: [] });
  });
});
