import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTimestamp } from "./iso-timestamp.js";

describe("isoTimestamp", () => {
  it("writes a time in UTC to the second", () => {
    expect(isoTimestamp(new Date("2026-11-22T10:11:12.345Z"))).toBe("2026-11-22T10:11:12Z");
  });

  it("is toISOString without the milliseconds, for any time", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(-70_000_000_000_000), max: new Date(300_000_000_000_000), noInvalidDate: true }), (date) => {
        expect(isoTimestamp(date)).toBe(date.toISOString().replace(/\.\d{3}Z$/, "Z"));
      }),
      { numRuns: 2000 },
    );
  });
});
