import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "@iflow-memory/test-utils";
import { describe, expect, it } from "vitest";
import { createTrackingRecord, writeTracking } from "./write-tracking.js";

const plan = { block: "## Engineering Memory (from knowledge bank)\n\n---\n", entries: [{ name: "A", contentHash: "0000000000000001" }, { name: "B", contentHash: "0000000000000002" }], sources: { local: 1, global: 1 }, droppedForBudget: 3 };

describe("createTrackingRecord", () => {
  it("records the original's fields, then ours, with a timestamp to the second", () => {
    expect(createTrackingRecord({ plan, project: "webshop", now: new Date("2026-11-22T10:11:12.345Z"), event: "resume" })).toEqual({
      timestamp: "2026-11-22T10:11:12Z",
      project: "webshop",
      entries_injected: 2,
      sources: { local: 1, global: 1 },
      entry_names: ["A", "B"],
      chars: plan.block.length,
      estimated_tokens: Math.ceil(plan.block.length / 4),
      dropped_for_budget: 3,
      event: "resume",
    });
  });
});

describe("writeTracking", () => {
  it("writes .last-injection.json whole, in a 0700 folder it creates, with mode 0600", async () => {
    const store = join(makeTempDir(), "memory");
    const record = createTrackingRecord({ plan, project: "webshop", now: new Date() });
    await writeTracking(store, record);
    expect(JSON.parse(readFileSync(join(store, ".last-injection.json"), "utf8"))).toEqual(record);
    expect([statSync(store).mode & 0o777, statSync(join(store, ".last-injection.json")).mode & 0o777]).toEqual([0o700, 0o600]);
  });

  it("fails with the path and the reason when the store is a file", async () => {
    const file = join(makeTempDir(), "store");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, "x");
    await expect(writeTracking(file, createTrackingRecord({ plan, project: "p", now: new Date() }))).rejects.toThrow(`cannot write ${file}/.last-injection.json: ENOTDIR`);
  });
});
